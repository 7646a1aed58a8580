import type { Pool } from 'pg';
import { withClient } from './with-client.js';

/**
 * The schema of the shared store, one step per version, applied in order on start (docs/team.md).
 * A step is never edited once released: a change is a new step. Every instance runs this on
 * start; an advisory lock makes the second of two instances starting at once wait for the first,
 * then find nothing left to do.
 */
const MIGRATIONS: readonly string[] = [
  // 1: recovery records. The summary columns and the response (rewritten while a drain grows) in
  // one row; the request body, often the largest part, in a row of its own written once.
  `CREATE TABLE switchyard_recoveries (
     seq bigint GENERATED ALWAYS AS IDENTITY,
     request_id text PRIMARY KEY,
     created_at double precision NOT NULL,
     interrupted_reason text NOT NULL,
     state text NOT NULL,
     user_name text NOT NULL,
     model text NOT NULL,
     protocol text NOT NULL,
     provider text NOT NULL,
     error_message text,
     resumed_by text,
     request_body_hash text NOT NULL,
     response_body_size integer NOT NULL,
     response_body text NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now()
   );
   CREATE INDEX switchyard_recoveries_by_age ON switchyard_recoveries (created_at, seq);
   CREATE INDEX switchyard_recoveries_by_hash ON switchyard_recoveries (request_body_hash);
   CREATE TABLE switchyard_recovery_requests (
     request_id text PRIMARY KEY REFERENCES switchyard_recoveries (request_id) ON DELETE CASCADE,
     body text NOT NULL
   );`,
  // 2: a draining record's lease, renewed by its instance while it drains: one past it was left by
  // an instance that stopped (docs/team.md). The time of the last change, for the instances that
  // learn of each other's resumable records.
  `ALTER TABLE switchyard_recoveries ADD COLUMN lease_expires_at timestamptz;
   CREATE INDEX switchyard_recoveries_by_update ON switchyard_recoveries (updated_at);`,
  // 3: the request log, one row per entry: the entry as `gateway logs --json` prints it, and its
  // bodies when `log.bodies` is on. Nothing is parsed on the way in (every request writes, few
  // read): readers take the fields from the JSON. When a row was written, on the database's
  // clock, for pruning and for finding the entries of a time (a BRIN index: rows come in order).
  `CREATE TABLE switchyard_request_log (
     seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     logged_at timestamptz NOT NULL DEFAULT now(),
     entry text NOT NULL,
     bodies text
   );
   CREATE INDEX switchyard_request_log_by_time ON switchyard_request_log USING brin (logged_at);`,
  // 4: the key pools' state shared by the instances: keys set aside (401/403) and rate-limit
  // rests (429), by provider, by the provider's config as read (a changed config starts afresh)
  // and by a hash of the key, never the key itself.
  `CREATE TABLE switchyard_key_states (
     provider text NOT NULL,
     config_hash text NOT NULL,
     key_hash text NOT NULL,
     set_aside boolean NOT NULL DEFAULT false,
     resting_until timestamptz,
     updated_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (provider, config_hash, key_hash)
   );
   CREATE INDEX switchyard_key_states_by_update ON switchyard_key_states (updated_at);`,
];

/** The version a database is at once `migratePostgres` has run. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/** Any 64-bit number the gateway alone uses: "switchyard" in ASCII, cut to fit. */
const MIGRATION_LOCK_ID = 0x73776974636879n;

/** Brings the database to POSTGRES_SCHEMA_VERSION; returns the version it was at before. */
export function migratePostgres(pool: Pool): Promise<number> {
  return withClient(pool, async (client) => {
    try {
      await client.query('BEGIN');
      // Released with the transaction, also when the connection drops.
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID.toString()]);
      await client.query('CREATE TABLE IF NOT EXISTS switchyard_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM switchyard_schema');
      const from = rows[0]?.version ?? 0;
      if (from > MIGRATIONS.length) {
        throw new Error(`the database's schema is at version ${from}, newer than this gateway knows (${MIGRATIONS.length}): upgrade the gateway`);
      }
      for (let version = from + 1; version <= MIGRATIONS.length; version++) {
        await client.query(MIGRATIONS[version - 1]);
        await client.query('INSERT INTO switchyard_schema (version) VALUES ($1)', [version]);
      }
      await client.query('COMMIT');
      return from;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}
