import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseRelay } from '../../test/helpers/database-relay.js';
import { DATABASE_URL, NO_DATABASE_REASON } from '../../test/helpers/test-database.js';
import { withClient } from './with-client.js';

describe.skipIf(!DATABASE_URL)('withClient', () => {
  let relay: DatabaseRelay;
  let pool: pg.Pool;
  beforeAll(async () => {
    const target = new URL(DATABASE_URL!);
    relay = new DatabaseRelay({ host: target.hostname, port: Number(target.port) });
    await relay.listen();
    target.port = String(relay.port);
    pool = new pg.Pool({ connectionString: target.toString(), max: 2 });
    pool.on('error', () => undefined);
  });
  afterAll(async () => {
    await pool?.end();
    await relay?.close();
  });

  it('a connection cut while checked out fails the work, not the process, and is not given back', async () => {
    const cut = withClient(pool, async (client) => {
      const sleeping = client.query('SELECT pg_sleep(5)');
      setTimeout(() => relay.stop(), 100);
      return sleeping;
    });
    // Unheard, the client's `error` event would end the test process before this rejects.
    await expect(cut).rejects.toThrow(/Connection terminated unexpectedly/);
    relay.start();
    expect(pool.totalCount).toBe(0);
    expect(await withClient(pool, async (client) => (await client.query('SELECT 1 AS one')).rows[0].one)).toBe(1);
  });

  it('a refused statement leaves the connection usable and in the pool', async () => {
    await expect(withClient(pool, (client) => client.query('SELECT * FROM no_such_table'))).rejects.toThrow(/no_such_table/);
    expect(pool.idleCount).toBe(1);
  });
});

describe.skipIf(DATABASE_URL)('withClient', () => {
  it.skip(NO_DATABASE_REASON, () => undefined);
});
