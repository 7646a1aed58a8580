import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, queryDatabase, DATABASE_URL, NO_DATABASE_REASON, type TestDatabase } from '../../test/helpers/test-database.js';
import type { GatewayConfig, ProviderConfig } from '../config/config-types.js';
import { parseConfig } from '../config/parse-config.js';
import { PostgresKeyStates } from '../store/postgres-key-states.js';
import { SharedKeyPool } from './shared-key-pool.js';

/**
 * Two instances' key pools on one database (docs/team.md): what one learns, the other applies
 * after its next poll. Polls are called by the tests (the pools' own timer is set to a minute),
 * and the clock is the tests' own, so that a rest ends when the test says.
 */
const KEYS = ['sk-pool-key-0000000000a1', 'sk-pool-key-0000000000b2', 'sk-pool-key-0000000000c3'];
const NOW_MS = 1_750_000_000_000;

/** Each instance parses its own copy of the config, as instances on several machines do. */
function parseTestConfig(extra: Record<string, unknown> = {}): GatewayConfig {
  const up = Object.assign({ type: 'openai-chat', baseURL: 'http://127.0.0.1:9/v1', apiKey: KEYS, discoverModels: false }, extra);
  return parseConfig({ providers: { up } }, {});
}

interface Instance {
  pool: SharedKeyPool;
  config: GatewayConfig;
  readonly provider: ProviderConfig;
  logs: string[];
}

/** The keys `count` picks in a row return (the pool rotates). */
function picks(instance: Instance, count: number, now = NOW_MS): Set<string | undefined> {
  return new Set(Array.from({ length: count }, () => instance.pool.pick(instance.provider, now)));
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.skipIf(!DATABASE_URL)('SharedKeyPool on PostgreSQL', () => {
  let database: TestDatabase;
  const opened: Instance[] = [];
  const open = (url = database.url, config = parseTestConfig()): Instance => {
    const logs: string[] = [];
    const log = (line: string) => void logs.push(line);
    const instance: Instance = {
      config,
      logs,
      get provider() {
        return instance.config.providers[0];
      },
      pool: new SharedKeyPool({ store: new PostgresKeyStates({ url, log }), getConfig: () => instance.config, log, pollMs: 60_000, now: () => NOW_MS }),
    };
    opened.push(instance);
    return instance;
  };
  const query = (text: string) => queryDatabase(database.url, text);
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((instance) => instance.pool.close()));
    await query('DELETE FROM switchyard_key_states');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('a key set aside on A is skipped by B after its poll, and by an instance that starts later', async () => {
    const [a, b] = [open(), open()];
    await Promise.all([a.pool.poll(), b.pool.poll()]);
    expect(a.pool.setAside(a.provider, KEYS[0])).toBe(true);
    await a.pool.settled();
    // Until it polls, B knows nothing of it.
    expect(picks(b, 3)).toEqual(new Set(KEYS));
    await b.pool.poll();
    expect(picks(b, 6)).toEqual(new Set([KEYS[1], KEYS[2]]));
    // Already set aside: B does not report it as news (the gateway logs a refusal the first time only).
    expect(b.pool.setAside(b.provider, KEYS[0])).toBe(false);

    const c = open();
    await c.pool.poll();
    expect(picks(c, 6)).toEqual(new Set([KEYS[1], KEYS[2]]));
    expect([...a.logs, ...b.logs, ...c.logs]).toEqual([]);
  });

  it('forgets the states no instance wrote for a month, when an instance first reaches the database', async () => {
    const a = open();
    await a.pool.poll();
    a.pool.setAside(a.provider, KEYS[0]);
    a.pool.setAside(a.provider, KEYS[1]);
    await a.pool.settled();
    await query(`UPDATE switchyard_key_states SET updated_at = now() - interval '31 days' WHERE key_hash = '${sha256(KEYS[0])}'`);
    const later = open();
    await later.pool.poll();
    // The month-old refusal is gone (the key is tried again); the recent one holds.
    expect(picks(later, 6)).toEqual(new Set([KEYS[0], KEYS[2]]));
    expect((await query('SELECT key_hash FROM switchyard_key_states')).map((row) => row.key_hash)).toEqual([sha256(KEYS[1])]);
  });

  it('a rest learned on A is respected by B until it ends; of two rests the later end holds', async () => {
    const [a, b] = [open(), open()];
    await Promise.all([a.pool.poll(), b.pool.poll()]);
    a.pool.rest(a.provider, KEYS[1], NOW_MS + 60_000);
    b.pool.rest(b.provider, KEYS[2], NOW_MS + 5_000);
    a.pool.rest(a.provider, KEYS[2], NOW_MS + 1_000);
    await Promise.all([a.pool.settled(), b.pool.settled()]);
    await Promise.all([a.pool.poll(), b.pool.poll()]);

    expect(picks(b, 6)).toEqual(new Set([KEYS[0]]));
    expect(picks(a, 6)).toEqual(new Set([KEYS[0]]));
    // A's shorter rest of the third key did not shorten B's.
    expect(picks(a, 6, NOW_MS + 5_001)).toEqual(new Set([KEYS[0], KEYS[2]]));
    expect(picks(b, 6, NOW_MS + 60_001)).toEqual(new Set(KEYS));
  });

  it('a changed provider config starts afresh: its keys are back; a reload of the same config keeps what was learned', async () => {
    const [a, b] = [open(), open()];
    await Promise.all([a.pool.poll(), b.pool.poll()]);
    a.pool.setAside(a.provider, KEYS[0]);
    await a.pool.settled();

    b.config = parseTestConfig({ timeoutMs: 12_345 });
    await b.pool.poll();
    expect(picks(b, 3)).toEqual(new Set(KEYS));

    // The same config read again is a new object: its states are read in full by the next poll,
    // a refusal of an hour ago included (a poll otherwise reads the last seconds' changes only).
    await query("UPDATE switchyard_key_states SET updated_at = now() - interval '1 hour'");
    a.config = parseTestConfig();
    expect(picks(a, 3)).toEqual(new Set(KEYS));
    await a.pool.poll();
    expect(picks(a, 6)).toEqual(new Set([KEYS[1], KEYS[2]]));
  });

  it('names keys by their SHA-256 only: no key, nor any part of one, reaches the table', async () => {
    const [a] = [open()];
    await a.pool.poll();
    a.pool.setAside(a.provider, KEYS[0]);
    a.pool.rest(a.provider, KEYS[1], NOW_MS + 60_000);
    await a.pool.settled();
    const stored = await query('SELECT * FROM switchyard_key_states ORDER BY key_hash');
    expect(stored.map((row) => [row.provider, row.key_hash, row.set_aside, row.resting_until !== null])).toEqual(
      [
        ['up', sha256(KEYS[0]), true, false],
        ['up', sha256(KEYS[1]), false, true],
      ].sort((left, right) => String(left[1]).localeCompare(String(right[1]))),
    );
    const text = JSON.stringify(stored);
    for (const key of KEYS) expect(text).not.toContain(key.slice(-8));
  });

  it('with the database unreachable: pick, setAside and rest work from memory, nothing throws, one log line with the password blanked', async () => {
    const port = await closedPort();
    const down = open(`postgres://switchyard:secret-pass-9@127.0.0.1:${port}/switchyard`);
    await down.pool.poll();
    expect(down.pool.setAside(down.provider, KEYS[0])).toBe(true);
    down.pool.rest(down.provider, KEYS[1], NOW_MS + 60_000);
    await down.pool.settled();
    await down.pool.poll();
    expect(picks(down, 3)).toEqual(new Set([KEYS[2]]));
    expect(down.logs).toHaveLength(1);
    expect(down.logs[0]).toContain(`key pools: cannot read the database postgres://switchyard:[redacted]@127.0.0.1:${port}/switchyard`);
    expect(down.logs[0]).not.toContain('secret-pass-9');
    opened.splice(opened.indexOf(down), 1);
    await down.pool.close();
    expect(down.logs[1]).toMatch(/2 key state\(s\) learned here were never shared/);
  });
});

describe.skipIf(DATABASE_URL)('SharedKeyPool on PostgreSQL', () => {
  it.skip(NO_DATABASE_REASON, () => undefined);
});

/** A port nothing listens on: a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
