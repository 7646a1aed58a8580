import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { configJsonSchema } from '../src/config/config-json-schema.js';
import { configFileSchema } from '../src/config/config-schema.js';
import { parseConfig } from '../src/config/parse-config.js';

const root = new URL('../', import.meta.url);

describe('the config file schema', () => {
  it('config.schema.json, for editors, is the one the gateway validates with (npm run build writes it)', () => {
    const published = JSON.parse(readFileSync(new URL('config.schema.json', root), 'utf8'));
    expect(published).toEqual(JSON.parse(JSON.stringify(configJsonSchema())));
    expect(published.properties.providers.additionalProperties.anyOf[0].properties.timeoutMs).toMatchObject({ type: 'integer', description: expect.any(String) });
  });

  it('every config.json example in the README is valid: whole files parse, snippets fit the schema', () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const blocks = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1].trim());
    const whole = blocks.filter((block) => block.startsWith('{')).map((block) => JSON.parse(block));
    const snippets = blocks.filter((block) => block.startsWith('"')).map((block) => JSON.parse(`{${block}}`));
    expect(whole.length).toBeGreaterThan(0);
    expect(snippets.length).toBeGreaterThan(0);
    // Every $NAME a snippet or example refers to is set.
    const env = new Proxy({}, { get: () => 'sk-set-in-the-environment' }) as Record<string, string>;
    for (const example of whole) expect(() => parseConfig(example, env)).not.toThrow();
    for (const snippet of snippets) expect(v.safeParse(configFileSchema, snippet).issues).toBeUndefined();
  });
});
