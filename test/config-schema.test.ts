import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configJsonSchema } from '../src/config/config-schema.js';
import { parseConfig } from '../src/config/parse-config.js';

const root = new URL('../', import.meta.url);

describe('the config file schema', () => {
  it('config.schema.json, for editors, is the one the gateway validates with (npm run build writes it)', () => {
    const published = JSON.parse(readFileSync(new URL('config.schema.json', root), 'utf8'));
    expect(published).toEqual(JSON.parse(JSON.stringify(configJsonSchema())));
    expect(published.properties.providers.additionalProperties.anyOf[0].properties.timeoutMs).toMatchObject({ type: 'integer', description: expect.any(String) });
  });

  it('every config.json example in the README is valid', () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    const examples = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1]));
    expect(examples.length).toBeGreaterThan(0);
    const env = { OPENAI_API_KEY: 'sk-a', ANTHROPIC_API_KEY: 'sk-b', OPENROUTER_API_KEY: 'sk-c', GEMINI_API_KEY: 'g' };
    for (const example of examples.filter((value) => 'providers' in value || 'server' in value)) expect(() => parseConfig(example, env)).not.toThrow();
  });
});
