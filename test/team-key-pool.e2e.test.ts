import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/parse-config.js';
import { SharedKeyPool } from '../src/providers/shared-key-pool.js';
import { createLogger } from '../src/server/create-logger.js';
import { startServer, type RunningServer } from '../src/server/start-server.js';
import { openConfiguredKeyPool, type ConfiguredKeyPool } from '../src/store/open-configured-key-pool.js';
import { openPostgresRecoveryStore } from '../src/store/postgres-recovery-store.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { readFixture } from './helpers/fixtures.js';
import { createTestDatabase, DATABASE_URL, NO_DATABASE_REASON, type TestDatabase } from './helpers/test-database.js';

/**
 * Team mode's key pools (docs/team.md): two gateway instances on one database, one upstream that
 * refuses one key of the pool. Once instance A has found it refused, instance B never sends it.
 */
const REFUSED_KEY = 'sk-team-refused-000000001';
const GOOD_KEY = 'sk-team-good-0000000000002';

interface Instance {
  server: RunningServer;
  keyPool: ConfiguredKeyPool;
  logs: string[];
}

describe.skipIf(!DATABASE_URL)('key pools shared by the instances on one database', () => {
  let database: TestDatabase;
  let upstream: FakeUpstream;
  let instances: Instance[] = [];
  const start = async (): Promise<Instance> => {
    const logs: string[] = [];
    const logger = createLogger({ write: (line) => logs.push(line) });
    const config = parseConfig(
      {
        providers: { up: { type: 'openai-chat', baseURL: `${upstream.url}/v1`, apiKey: [REFUSED_KEY, GOOD_KEY], discoverModels: false } },
        store: { type: 'postgres', url: '$TEAM_DATABASE_URL' },
      },
      { TEAM_DATABASE_URL: database.url },
    );
    // As `gateway serve` does: the pool follows the server's config once it runs.
    let server: RunningServer | undefined;
    const keyPool = await openConfiguredKeyPool(config.store, () => server?.gateway.config() ?? config, (message) => logger.warn(message));
    const recoveryStore = await openPostgresRecoveryStore({ url: database.url });
    server = await startServer({ config, logger, recoveryStore, keys: keyPool.keys, host: '127.0.0.1', port: 0 });
    return { server, keyPool, logs };
  };
  beforeAll(async () => {
    database = await createTestDatabase();
    const answer = readFixture('openai-chat', 'text.json');
    upstream = await startFakeUpstream((request) =>
      request.headers.authorization === `Bearer ${REFUSED_KEY}`
        ? { status: 401, json: JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }) }
        : { json: answer },
    );
    instances = [await start(), await start()];
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.server.close(1000)));
    await Promise.all(instances.map((instance) => instance.keyPool.close()));
    await upstream?.close();
    await database?.drop();
  });

  const ask = (instance: Instance) =>
    new OpenAI({ apiKey: 'sk-client', baseURL: `${instance.server.url}/v1`, maxRetries: 0 }).chat.completions
      .create({ model: 'up/gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
  const keysSent = () => upstream.requests.map((request) => request.headers.authorization?.replace('Bearer ', ''));

  it('a key refused on instance A is never sent by instance B once B has polled', async () => {
    const [a, b] = instances;
    const [aKeys, bKeys] = [a.keyPool.keys, b.keyPool.keys];
    expect(aKeys).toBeInstanceOf(SharedKeyPool);
    expect(bKeys).toBeInstanceOf(SharedKeyPool);

    const first = await ask(a);
    expect(first.data.choices[0].message.content).toBeTruthy();
    expect(first.response.headers.get('x-switchyard-attempts')).toBe('2');
    expect(keysSent()).toEqual([REFUSED_KEY, GOOD_KEY]);

    // What A learned reaches the database in the background, and B on its next poll (once a second; here at once).
    await (aKeys as SharedKeyPool).settled();
    await (bKeys as SharedKeyPool).poll();
    upstream.requests.length = 0;
    for (let round = 0; round < 4; round += 1) {
      const { response } = await ask(b);
      expect(response.headers.get('x-switchyard-attempts')).toBe('1');
    }
    expect(keysSent()).toEqual([GOOD_KEY, GOOD_KEY, GOOD_KEY, GOOD_KEY]);

    // A logged the refusal once, by the key's last four characters; B had nothing to log; no key in any log.
    expect(a.logs.join('\n').match(/refused its key …0001/g)).toHaveLength(1);
    expect(b.logs.join('\n')).not.toContain('refused');
    for (const line of [...a.logs, ...b.logs]) {
      expect(line).not.toContain(REFUSED_KEY);
      expect(line).not.toContain(GOOD_KEY);
    }
  });
});

describe.skipIf(DATABASE_URL)('key pools shared by the instances on one database', () => {
  it.skip(NO_DATABASE_REASON, () => undefined);
});
