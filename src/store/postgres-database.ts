import pg from 'pg';
import { redactDatabaseText, redactDatabaseUrl } from './database-url.js';
import { migratePostgres } from './postgres-migrations.js';

/**
 * One connection pool to the shared database, its schema brought to this gateway's version, and
 * the means to speak of it without its password. Each part of the store (recoveries, request log,
 * key pools) opens its own: a part that stops does not take the others' connections with it.
 */
export interface PostgresDatabase {
  readonly pool: pg.Pool;
  /** The URL as it may be shown: its password blanked. */
  readonly location: string;
  /** `text` with the URL and its password blanked: what a driver's error says about the database. */
  redact(text: string): string;
  /** An error's message, redacted. */
  describe(error: unknown): string;
  /** Waits for the queries in flight, then closes every connection. */
  close(): Promise<void>;
}

export interface OpenPostgresOptions {
  /** postgres://user:password@host:port/database; its password is never shown. */
  url: string;
  /** Connections at most. */
  maxConnections: number;
  /** Where a connection lost between queries is told (a server restart); already redacted. */
  log: (message: string) => void;
  /** What the pool is for, in that message: "recoveries", "request log". */
  purpose: string;
}

/**
 * Connects and migrates (postgres-migrations.ts). Fails with the driver's reason, redacted, when
 * the database cannot be reached, refuses the login, or holds a newer schema.
 */
export async function openPostgresDatabase(options: OpenPostgresOptions): Promise<PostgresDatabase> {
  const location = redactDatabaseUrl(options.url);
  const redact = (text: string) => redactDatabaseText(text, options.url);
  const describe = (error: unknown) => redact(error instanceof Error ? error.message : String(error));
  const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections, connectionTimeoutMillis: 10_000 });
  // An idle connection the server drops (a restart) must not end the process; the next query reconnects.
  pool.on('error', (error) => options.log(`${options.purpose} database ${location}: ${describe(error)}`));
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    // The driver's error could carry connection details: only the redacted text goes on.
    throw new Error(describe(error));
  }
  let ended: Promise<void> | undefined;
  return {
    pool,
    location,
    redact,
    describe,
    close: () => (ended ??= pool.end()),
  };
}
