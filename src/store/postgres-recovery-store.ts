import pg from 'pg';
import { assertStorableRecord } from '../recoveries/assert-storable-record.js';
import { isStorableRequestId, type InterruptedReason, type RecoveryRecord, type RecoveryState, type RecoverySummary } from '../recoveries/recovery-record.js';
import { RecoveryStoreError } from '../recoveries/recovery-store-error.js';
import type { RecoveryStore } from '../recoveries/recovery-store.js';
import { DEFAULT_MAX_AGE_MS, DEFAULT_MAX_RECORDS } from '../recoveries/retention.js';
import type { Protocol } from '../core/protocol.js';
import { redactDatabaseText, redactDatabaseUrl } from './database-url.js';
import { migratePostgres } from './postgres-migrations.js';

export interface PostgresRecoveryStoreOptions {
  /** postgres://user:password@host:port/database; its password is never shown. */
  url: string;
  maxRecords?: number;
  /** 0: no age limit. */
  maxAgeMs?: number;
  /** Milliseconds since the epoch, for retention; tests pass a fixed clock. */
  now?: () => number;
  /** Connection failures between operations (an idle connection dropped by the server); default stderr. */
  log?: (message: string) => void;
  /** Connections at most (default 10). */
  maxConnections?: number;
}

const SUMMARY_COLUMNS =
  'request_id, created_at, interrupted_reason, state, user_name, model, protocol, provider, resumed_by, request_body_hash, response_body_size';

interface SummaryRow {
  request_id: string;
  created_at: number;
  interrupted_reason: InterruptedReason;
  state: RecoveryState;
  user_name: string;
  model: string;
  protocol: Protocol;
  provider: string;
  resumed_by: string | null;
  request_body_hash: string;
  response_body_size: number;
}

interface RecordRow extends SummaryRow {
  error_message: string | null;
  response_body: string;
  request_body: string;
}

/**
 * The recoveries store on PostgreSQL (docs/team.md), shared by every instance on the database.
 * The same contract as the file store (recovery-store.ts). A record's writes touch its own rows
 * only: the request body is written once, a drain's refresh updates the response and the summary
 * columns, so their cost does not grow with the table. Every failure is a RecoveryStoreError whose
 * message shows the database URL with its password blanked.
 */
export async function openPostgresRecoveryStore(options: PostgresRecoveryStoreOptions): Promise<RecoveryStore> {
  const location = redactDatabaseUrl(options.url);
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const maxRecords = options.maxRecords ?? DEFAULT_MAX_RECORDS;
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const now = options.now ?? Date.now;
  const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10, connectionTimeoutMillis: 10_000 });
  // An idle connection the server drops (a restart) must not end the process; the next query reconnects.
  pool.on('error', (error) => log(`recoveries database ${location}: ${redactDatabaseText(error.message, options.url)}`));
  let closed = false;

  const fail = (error: unknown, action: string): RecoveryStoreError => {
    if (RecoveryStoreError.is(error)) return error;
    const detail = redactDatabaseText(error instanceof Error ? error.message : String(error), options.url);
    // The driver's error could carry connection details; the cause keeps only the redacted text.
    return new RecoveryStoreError('STORE_IO', `Cannot ${action} the recoveries database ${location}: ${detail}.`, { cause: new Error(detail) });
  };
  const run = async <T>(action: string, work: () => Promise<T>): Promise<T> => {
    if (closed) throw new RecoveryStoreError('STORE_CLOSED', `The recoveries store ${location} is closed.`);
    try {
      return await work();
    } catch (error) {
      throw fail(error, action);
    }
  };

  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw fail(error, 'prepare');
  }

  const prune = async (client: pg.PoolClient): Promise<void> => {
    if (maxAgeMs > 0 && Number.isFinite(maxAgeMs)) {
      await client.query('DELETE FROM switchyard_recoveries WHERE created_at < $1::double precision', [(now() - maxAgeMs) / 1000]);
    }
    // The newest maxRecords stay: the one just past them is found through the index on
    // (created_at, seq), and it and everything older go. No count of the table.
    await client.query(
      `WITH edge AS (SELECT created_at, seq FROM switchyard_recoveries ORDER BY created_at DESC, seq DESC OFFSET $1 LIMIT 1)
       DELETE FROM switchyard_recoveries t USING edge WHERE (t.created_at, t.seq) <= (edge.created_at, edge.seq)`,
      [Math.max(0, maxRecords)],
    );
  };

  const userClause = (user: string | undefined, position: number): string => (user === undefined ? '' : ` AND user_name = $${position}`);

  return {
    location,

    add: (record) =>
      run('write to', async () => {
        assertStorableRecord(record);
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query(
            `INSERT INTO switchyard_recoveries (request_id, created_at, interrupted_reason, state, user_name, model, protocol, provider,
               error_message, resumed_by, request_body_hash, response_body_size, response_body)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
             ON CONFLICT (request_id) DO UPDATE SET created_at = $2, interrupted_reason = $3, state = $4, user_name = $5, model = $6,
               protocol = $7, provider = $8, error_message = $9, resumed_by = $10, request_body_hash = $11, response_body_size = $12,
               response_body = $13, updated_at = now()`,
            recordValues(record),
          );
          await client.query(
            'INSERT INTO switchyard_recovery_requests (request_id, body) VALUES ($1, $2) ON CONFLICT (request_id) DO UPDATE SET body = $2',
            [record.request_id, record.request.body_raw],
          );
          await prune(client);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      }),

    // The request body of a stored id does not change: only the summary and the response are written.
    replace: (record) =>
      run('write to', async () => {
        assertStorableRecord(record);
        const result = await pool.query(
          `UPDATE switchyard_recoveries SET created_at = $2, interrupted_reason = $3, state = $4, user_name = $5, model = $6, protocol = $7,
             provider = $8, error_message = $9, resumed_by = $10, request_body_hash = $11, response_body_size = $12, response_body = $13,
             updated_at = now()
           WHERE request_id = $1`,
          recordValues(record),
        );
        return (result.rowCount ?? 0) > 0;
      }),

    markResumed: (requestId, resumedBy, user) =>
      run('write to', async () => {
        if (!isStorableRequestId(requestId)) return false;
        const result = await pool.query(
          `UPDATE switchyard_recoveries SET resumed_by = $2, updated_at = now() WHERE request_id = $1${userClause(user, 3)}`,
          user === undefined ? [requestId, resumedBy] : [requestId, resumedBy, user],
        );
        return (result.rowCount ?? 0) > 0;
      }),

    list: (user) =>
      run('read', async () => {
        const { rows } = await pool.query<SummaryRow>(
          `SELECT ${SUMMARY_COLUMNS} FROM switchyard_recoveries WHERE true${userClause(user, 1)} ORDER BY created_at DESC, seq ASC`,
          user === undefined ? [] : [user],
        );
        return rows.map(toSummary);
      }),

    get: (requestId, user) =>
      run('read', async () => {
        if (!isStorableRequestId(requestId)) return undefined;
        const { rows } = await pool.query<RecordRow>(
          `SELECT ${SUMMARY_COLUMNS}, error_message, response_body, r.body AS request_body
           FROM switchyard_recoveries JOIN switchyard_recovery_requests r USING (request_id)
           WHERE request_id = $1${userClause(user, 2)}`,
          user === undefined ? [requestId] : [requestId, user],
        );
        return rows[0] && toRecord(rows[0]);
      }),

    lookup: (requestBodyHash, user) =>
      run('read', async () => {
        const { rows } = await pool.query<SummaryRow>(
          `SELECT ${SUMMARY_COLUMNS} FROM switchyard_recoveries WHERE request_body_hash = $1${userClause(user, 2)} ORDER BY created_at DESC, seq ASC`,
          user === undefined ? [requestBodyHash] : [requestBodyHash, user],
        );
        return rows.map(toSummary);
      }),

    remove: (requestId, user) =>
      run('write to', async () => {
        if (!isStorableRequestId(requestId)) return false;
        const result = await pool.query(`DELETE FROM switchyard_recoveries WHERE request_id = $1${userClause(user, 2)}`, user === undefined ? [requestId] : [requestId, user]);
        return (result.rowCount ?? 0) > 0;
      }),

    removeAll: (user, removeOptions = {}) =>
      run(removeOptions.dryRun ? 'read' : 'write to', async () => {
        const values = user === undefined ? [] : [user];
        if (removeOptions.dryRun) {
          const { rows } = await pool.query<{ count: string }>(`SELECT count(*) AS count FROM switchyard_recoveries WHERE true${userClause(user, 1)}`, values);
          return Number(rows[0]?.count ?? 0);
        }
        const result = await pool.query(`DELETE FROM switchyard_recoveries WHERE true${userClause(user, 1)}`, values);
        return result.rowCount ?? 0;
      }),

    async close() {
      if (closed) return;
      closed = true;
      // Waits for the queries in flight, then closes every connection.
      await pool.end();
    },
  };
}

function recordValues(record: RecoveryRecord): unknown[] {
  return [
    record.request_id,
    record.created_at,
    record.interrupted_reason,
    record.state,
    record.user,
    record.model,
    record.protocol,
    record.provider,
    record.error_message ?? null,
    record.resumed_by ?? null,
    record.request.request_body_hash,
    record.response.response_body_size,
    record.response.body_raw,
  ];
}

function toSummary(row: SummaryRow): RecoverySummary {
  const summary: RecoverySummary = {
    request_id: row.request_id,
    created_at: row.created_at,
    interrupted_reason: row.interrupted_reason,
    state: row.state,
    request_body_hash: row.request_body_hash,
    user: row.user_name,
    model: row.model,
    protocol: row.protocol,
    provider: row.provider,
    response_body_size: row.response_body_size,
  };
  if (row.resumed_by !== null) summary.resumed_by = row.resumed_by;
  return summary;
}

/** The same record the file store returns: optional fields absent, not null, in the same key order. */
function toRecord(row: RecordRow): RecoveryRecord {
  const record: RecoveryRecord = {
    request_id: row.request_id,
    created_at: row.created_at,
    interrupted_reason: row.interrupted_reason,
    state: row.state,
    user: row.user_name,
    model: row.model,
    protocol: row.protocol,
    provider: row.provider,
    request: { body_raw: row.request_body, request_body_hash: row.request_body_hash },
    response: { body_raw: row.response_body, response_body_size: row.response_body_size },
  };
  if (row.error_message !== null) record.error_message = row.error_message;
  if (row.resumed_by !== null) record.resumed_by = row.resumed_by;
  return record;
}
