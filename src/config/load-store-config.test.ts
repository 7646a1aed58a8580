import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStoreConfig } from './load-store-config.js';

function configFile(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'switchyard-store-config-')), 'config.json');
  writeFileSync(path, content);
  return path;
}

describe('loadStoreConfig', () => {
  it('gives the files store when there is no config file, or no store section', async () => {
    expect(await loadStoreConfig({ path: join(tmpdir(), 'no-such-switchyard-config.json'), env: {} })).toEqual({ type: 'files' });
    expect(await loadStoreConfig({ path: configFile('{"providers":{}}'), env: {} })).toEqual({ type: 'files' });
  });

  it('reads a postgres store, its URL from the environment, whatever the rest of the config says', async () => {
    const path = configFile(JSON.stringify({ store: { type: 'postgres', url: '$DATABASE_URL', drainLeaseSeconds: 5 }, providers: { broken: { type: 'nonsense' } } }));
    expect(await loadStoreConfig({ path, env: { DATABASE_URL: 'postgres://u:secret@db/x' } })).toEqual({ type: 'postgres', url: 'postgres://u:secret@db/x', drainLeaseMs: 5000 });
  });

  it('refuses a file named that is not there', async () => {
    const path = join(tmpdir(), 'no-such-switchyard-config.json');
    await expect(loadStoreConfig({ path, explicit: true, env: {} })).rejects.toThrow(/cannot read the file \(ENOENT\)/);
  });

  it('refuses a store section as serve does, naming the field and never the URL', async () => {
    await expect(loadStoreConfig({ path: configFile('{"store":{"type":"mongo"}}'), env: {} })).rejects.toThrow(/store\.type: expected one of "files", "postgres", got "mongo"/);
    await expect(loadStoreConfig({ path: configFile('{"store":{"type":"postgres","url":"mysql://u:secret@db/x"}}'), env: {} })).rejects.toThrow(/store\.url/);
    await expect(loadStoreConfig({ path: configFile('{"store":{"type":"postgres","url":"mysql://u:secret@db/x"}}'), env: {} })).rejects.not.toThrow(/secret/);
    await expect(loadStoreConfig({ path: configFile('{"store":{"type":"postgres","url":"$MISSING"}}'), env: {} })).rejects.toThrow(/MISSING, which is not set/);
    await expect(loadStoreConfig({ path: configFile('{"store":'), env: {} })).rejects.toThrow(/not valid JSON/);
    await expect(loadStoreConfig({ path: configFile('[]'), env: {} })).rejects.toThrow(/JSON object/);
  });
});
