import pg from 'pg';
import { redactDatabaseText, redactDatabaseUrl } from './database-url.js';
import { POSTGRES_SCHEMA_VERSION } from './postgres-migrations.js';

/**
 * `gateway doctor` on a PostgreSQL store: the database answers, the login works, and its schema's
 * version is the one this gateway writes. Nothing is created or migrated: `serve` does that.
 */
export async function checkPostgresStore(url: string, timeoutMs = 5000): Promise<{ status: 'ok' | 'warn' | 'fail'; message: string }> {
  const location = redactDatabaseUrl(url);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  // A connection the server drops while the check runs must not end the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    // A database the gateway never started on has no schema table: version 0.
    const { rows: tables } = await client.query<{ found: string | null }>("SELECT to_regclass('switchyard_schema') AS found");
    const { rows } = tables[0]?.found ? await client.query<{ version: number | null }>('SELECT max(version) AS version FROM switchyard_schema') : { rows: [] };
    const version = rows[0]?.version ?? 0;
    if (version === POSTGRES_SCHEMA_VERSION) return { status: 'ok', message: `${location} answers; its schema is at version ${version}, this gateway's.` };
    if (version > POSTGRES_SCHEMA_VERSION) {
      return { status: 'fail', message: `${location} answers, but its schema is at version ${version}, newer than this gateway's (${POSTGRES_SCHEMA_VERSION}): upgrade the gateway.` };
    }
    return {
      status: 'warn',
      message: `${location} answers; its schema is at version ${version}, this gateway's is ${POSTGRES_SCHEMA_VERSION}: \`gateway serve\` upgrades it when it starts (its user must be allowed to create tables).`,
    };
  } catch (error) {
    const detail = redactDatabaseText(error instanceof Error ? error.message : String(error), url);
    return { status: 'fail', message: `${location} cannot be used (${detail}): check store.url, that the database runs and that its user can log in.` };
  } finally {
    await client.end().catch(() => undefined);
  }
}
