import pg from 'pg';
import { assertStorableRecord } from '../recoveries/assert-storable-record.js';
import { isStorableRequestId, type InterruptedReason, type RecoveryRecord, type RecoveryState, type RecoverySummary } from '../recoveries/recovery-record.js';
import { RecoveryStoreError } from '../recoveries/recovery-store-error.js';
import type { RecoveryStore } from '../recoveries/recovery-store.js';
import { DEFAULT_MAX_AGE_MS, DEFAULT_MAX_RECORDS } from '../recoveries/retention.js';
import type { Protocol } from '../core/protocol.js';
import { redactDatabaseText, redactDatabaseUrl } from './database-url.js';
import { migratePostgres } from './postgres-migrations.js';
import { isDatabaseUnavailable, PENDING_RECORDS_LIMIT, PendingRecordWrites, type PendingKind } from './pending-record-writes.js';

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
  /**
   * How long a draining record stays `draining` without its instance renewing it (default 30 s):
   * past it, every reader sees it complete, cut by a stopped instance (docs/team.md).
   */
  drainLeaseMs?: number;
  /** How often the records other instances made resumable are looked for (default 1 s). */
  resumablePollMs?: number;
  /** Records kept in memory while the database is unreachable (default 1,000). */
  pendingLimit?: number;
}

/** The lease of a draining record is renewed this many times within it. */
const RENEWALS_PER_LEASE = 3;
/** Rows changed this long before the last look are looked at again: a transaction's now() is its start. */
const RESUMABLE_OVERLAP_MS = 5000;

export const DEFAULT_DRAIN_LEASE_MS = 30_000;

// A draining record whose lease ran out: its instance stopped (killed, crashed) mid-drain.
const EXPIRED = "(state = 'draining' AND lease_expires_at < now())";
const LEASE_ERROR = 'The gateway instance draining this response stopped before its end; the response holds what had arrived.';

const SUMMARY_COLUMNS = `request_id, created_at,
  CASE WHEN ${EXPIRED} THEN 'server_shutdown' ELSE interrupted_reason END AS interrupted_reason,
  CASE WHEN ${EXPIRED} THEN 'complete' ELSE state END AS state,
  user_name, model, protocol, provider, resumed_by, request_body_hash, response_body_size`;

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
 *
 * A draining record carries a lease that this store renews while the record drains; a reader
 * past the lease sees the record complete (`server_shutdown`, with what had arrived). A record the
 * database cannot take because it is unreachable is kept in memory (PendingRecordWrites) and
 * written when it is back: the gateway's requests never wait for it.
 */
export async function openPostgresRecoveryStore(options: PostgresRecoveryStoreOptions): Promise<RecoveryStore> {
  const location = redactDatabaseUrl(options.url);
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const maxRecords = options.maxRecords ?? DEFAULT_MAX_RECORDS;
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const now = options.now ?? Date.now;
  const leaseMs = options.drainLeaseMs ?? DEFAULT_DRAIN_LEASE_MS;
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

  const addNow = async (record: RecoveryRecord): Promise<void> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO switchyard_recoveries (request_id, created_at, interrupted_reason, state, user_name, model, protocol, provider,
           error_message, resumed_by, request_body_hash, response_body_size, response_body, lease_expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, ${LEASE_VALUE})
         ON CONFLICT (request_id) DO UPDATE SET created_at = $2, interrupted_reason = $3, state = $4, user_name = $5, model = $6,
           protocol = $7, provider = $8, error_message = $9, resumed_by = $10, request_body_hash = $11, response_body_size = $12,
           response_body = $13, lease_expires_at = ${LEASE_VALUE}, updated_at = now()`,
        recordValues(record, leaseMs),
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
  };

  const replaceNow = async (record: RecoveryRecord): Promise<boolean> => {
    const result = await pool.query(
      `UPDATE switchyard_recoveries SET created_at = $2, interrupted_reason = $3, state = $4, user_name = $5, model = $6, protocol = $7,
         provider = $8, error_message = $9, resumed_by = $10, request_body_hash = $11, response_body_size = $12, response_body = $13,
         lease_expires_at = ${LEASE_VALUE}, updated_at = now()
       WHERE request_id = $1`,
      recordValues(record, leaseMs),
    );
    return (result.rowCount ?? 0) > 0;
  };

  const logRedacted = (message: string): void => log(redactDatabaseText(message, options.url));
  const pending = new PendingRecordWrites({
    write: async (record: RecoveryRecord, kind: PendingKind) => {
      if (kind === 'add') await addNow(record);
      else await replaceNow(record);
    },
    log: logRedacted,
    limit: options.pendingLimit ?? PENDING_RECORDS_LIMIT,
    retryMs: 1000,
  });
  /** Writes the record, or keeps it for later when the database cannot be reached. */
  const write = async (record: RecoveryRecord, kind: PendingKind): Promise<boolean> => {
    if (pending.has(record.request_id)) return pending.keep(record, kind);
    try {
      if (kind === 'add') {
        await addNow(record);
        return true;
      }
      return await replaceNow(record);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const kept = pending.keep(record, kind);
      if (kept) logRedacted(`recoveries database ${location} unreachable (${(error as Error).message}): record ${record.request_id} kept in memory until it is back (${pending.size} waiting)`);
      return kept;
    }
  };

  // Leases of the records this instance drains, renewed together.
  const draining = new Set<string>();
  const track = (record: RecoveryRecord): void => {
    if (record.state === 'draining') draining.add(record.request_id);
    else draining.delete(record.request_id);
  };
  const renewal = setInterval(() => {
    if (draining.size === 0) return;
    pool
      .query(`UPDATE switchyard_recoveries SET lease_expires_at = now() + $2::double precision * interval '1 millisecond' WHERE request_id = ANY($1::text[]) AND state = 'draining'`, [[...draining], leaseMs])
      .catch((error: unknown) => logRedacted(`could not renew the leases of ${draining.size} draining record(s) on ${location}: ${(error as Error).message}`));
  }, Math.max(10, Math.floor(leaseMs / RENEWALS_PER_LEASE)));
  renewal.unref();

  let watching: NodeJS.Timeout | undefined;

  return {
    location,

    add: (record) =>
      run('write to', async () => {
        assertStorableRecord(record);
        track(record);
        await write(record, 'add');
      }),

    // The request body of a stored id does not change: only the summary and the response are written.
    replace: (record) =>
      run('write to', async () => {
        assertStorableRecord(record);
        track(record);
        return write(record, 'replace');
      }),

    watchResumable(listener, pollMs = options.resumablePollMs ?? 1000) {
      let since: Date | undefined;
      let polling = false;
      const poll = async (): Promise<void> => {
        if (polling || closed) return;
        polling = true;
        try {
          const clock = await pool.query<{ at: Date }>('SELECT now() AS at');
          const from = since ?? new Date(clock.rows[0].at.getTime() - RESUMABLE_OVERLAP_MS);
          const { rows } = await pool.query<SummaryRow>(
            `SELECT ${SUMMARY_COLUMNS} FROM switchyard_recoveries
             WHERE updated_at >= $1 AND state = 'complete' AND interrupted_reason = 'client_disconnected' AND resumed_by IS NULL AND error_message IS NULL
             ORDER BY created_at ASC, seq ASC`,
            [from],
          );
          since = new Date(clock.rows[0].at.getTime() - RESUMABLE_OVERLAP_MS);
          if (rows.length > 0) listener(rows.map(toSummary));
        } catch (error) {
          logRedacted(`could not look for resumable records on ${location}: ${(error as Error).message}`);
        } finally {
          polling = false;
        }
      };
      clearInterval(watching);
      watching = setInterval(() => void poll(), pollMs);
      watching.unref();
    },

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
          `SELECT ${SUMMARY_COLUMNS}, CASE WHEN ${EXPIRED} THEN $${user === undefined ? 2 : 3} ELSE error_message END AS error_message,
             response_body, r.body AS request_body
           FROM switchyard_recoveries JOIN switchyard_recovery_requests r USING (request_id)
           WHERE request_id = $1${userClause(user, 2)}`,
          user === undefined ? [requestId, LEASE_ERROR] : [requestId, user, LEASE_ERROR],
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
        draining.delete(requestId);
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
      clearInterval(renewal);
      clearInterval(watching);
      pending.stop();
      if (pending.size > 0) await pending.flush();
      if (pending.size > 0) log(`LOST ${pending.size} recovery record(s): the recoveries database ${location} was still unreachable when the gateway stopped`);
      closed = true;
      // Waits for the queries in flight, then closes every connection.
      await pool.end();
    },
  };
}

// $4 is the state, $14 the lease in milliseconds (recordValues).
const LEASE_VALUE = "CASE WHEN $4 = 'draining' THEN now() + $14::double precision * interval '1 millisecond' END";

function recordValues(record: RecoveryRecord, leaseMs: number): unknown[] {
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
    leaseMs,
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
