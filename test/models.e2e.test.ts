import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/parse-config.js';
import { createLogger } from '../src/server/create-logger.js';
import { startServer } from '../src/server/start-server.js';
import { openRecoveryStore } from '../src/recoveries/recovery-store.js';
import { startFakeUpstream } from './helpers/fake-upstream.js';

async function modelIds(url: string): Promise<string[]> {
  const body = (await (await fetch(`${url}/v1/models`)).json()) as any;
  return body.data.map((model: { id: string }) => model.id);
}

/** Polls until `check` passes (bounded: the watcher and the discovery run in the background). */
async function eventually(check: () => Promise<void>, attempts = 100): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await check();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await sleep(50);
    }
  }
}

describe('GET /v1/models', () => {
  it('reflects config file changes without a restart, and keeps the old config on an invalid edit', async () => {
    const home = mkdtempSync(join(tmpdir(), 'switchyard-models-'));
    const file = join(home, 'config.json');
    writeFileSync(file, JSON.stringify({ providers: { mock: { type: 'mock', models: ['extra-one'] } } }));
    const logs: string[] = [];
    const server = await startServer({
      config: parseConfig(JSON.parse('{"providers":{"mock":{"type":"mock","models":["extra-one"]}}}'), {}, file),
      logger: createLogger({ write: (line) => logs.push(line) }),
      recoveryStore: await openRecoveryStore({ directory: join(mkdtempSync(join(tmpdir(), 'switchyard-models-store-')), 'recoveries') }),
      host: '127.0.0.1',
      port: 0,
      watch: { path: file, explicit: true },
    });
    try {
      expect(await modelIds(server.url)).toContain('extra-one');
      writeFileSync(file, JSON.stringify({ providers: { mock: { type: 'mock', models: ['extra-two'] } } }));
      await eventually(async () => {
        const ids = await modelIds(server.url);
        expect(ids).toContain('extra-two');
        expect(ids).not.toContain('extra-one');
      });
      writeFileSync(file, '{ not json');
      await eventually(async () => expect(logs.join('\n')).toContain('config not reloaded'));
      expect(await modelIds(server.url)).toContain('extra-two');
    } finally {
      await server.close(0);
    }
  });

  it('adds the models an upstream lists, fetched in the background', async () => {
    const upstream = await startFakeUpstream((request) =>
      request.path === '/v1/models'
        ? { json: JSON.stringify({ object: 'list', data: [{ id: 'up-model-a', object: 'model' }, { id: 'up-model-b', object: 'model' }] }) }
        : { status: 404, json: '{}' },
    );
    const server = await startServer({
      config: parseConfig({ providers: { up: { type: 'openai-chat', baseURL: `${upstream.url}/v1`, apiKey: 'k', models: ['configured'] } } }, {}),
      logger: createLogger({ quiet: true }),
      recoveryStore: await openRecoveryStore({ directory: join(mkdtempSync(join(tmpdir(), 'switchyard-models-store-')), 'recoveries') }),
      host: '127.0.0.1',
      port: 0,
    });
    try {
      await eventually(async () => expect(await modelIds(server.url)).toEqual(expect.arrayContaining(['configured', 'up-model-a', 'up-model-b', 'mock-echo'])));
      expect(upstream.requests[0].headers.authorization).toBe('Bearer k');
    } finally {
      await server.close(0);
      await upstream.close();
    }
  });
});
