import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The PostgreSQL the store's tests run against: DATABASE_URL, as `.ci/run` exports it after
 * starting a throwaway server (`.ci/postgres start`). Without one, those tests skip, and say so.
 */
export const DATABASE_URL = process.env.DATABASE_URL || undefined;

export const NO_DATABASE_REASON = 'skipped: no PostgreSQL (set DATABASE_URL, or run `eval "$(.ci/postgres start)"` first)';

if (!DATABASE_URL) process.stderr.write(`PostgreSQL store tests ${NO_DATABASE_REASON}\n`);

export interface TestDatabase {
  /** DATABASE_URL with its own fresh database, password included. */
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database on the server of DATABASE_URL, so test files never see each other's rows. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!DATABASE_URL) throw new Error(NO_DATABASE_REASON);
  const name = `switchyard_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** One query on the database at `url`, on a connection of its own: what a test reads of the tables as they are. */
export async function queryDatabase<Row extends pg.QueryResultRow = Record<string, any>>(url: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}
