import type pg from 'pg';
import { isDatabaseUnavailable } from './pending-record-writes.js';

/**
 * `work` on a connection checked out of the pool for it. A connection the server drops while it is
 * checked out emits an `error` that no one else listens to, and an unheard `error` ends the process
 * (the pool listens only to idle connections): it is heard here, the query under way fails with
 * it anyway, and a connection that failed is closed rather than given back to the pool.
 */
export async function withClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken ??= error;
  };
  client.on('error', onError);
  try {
    return await work(client);
  } catch (error) {
    // A refused statement leaves the connection usable (its transaction rolled back); a lost one does not.
    if (isDatabaseUnavailable(error)) broken ??= error as Error;
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}
