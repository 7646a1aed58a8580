import type pg from 'pg';
import { assertStorableRecord } from '../recoveries/assert-storable-record.js';
import { isStorableRequestId, type RecoveryRecord, type RecoverySummary } from '../recoveries/recovery-record.js';
import { RecoveryStoreError } from '../recoveries/recovery-store-error.js';
import type { RecoveryStore } from '../recoveries/recovery-store.js';
import { DEFAULT_MAX_AGE_MS, DEFAULT_MAX_RECORDS } from '../recoveries/retention.js';
import { redactDatabaseUrl } from './database-url.js';
import { openPostgresDatabase, type PostgresDatabase } from './postgres-database.js';
import { EXPIRED, LEASE_ERROR, LEASE_VALUE, recordValues, SUMMARY_COLUMNS, toRecord, toSummary, type RecordRow, type SummaryRow } from './postgres-recovery-rows.js';
import { isDatabaseUnavailable, PENDING_RECORDS_LIMIT, PendingRecordWrites, type PendingKind } from './pending-record-writes.js';
import { withClient } from './with-client.js';

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
  /** How often at most the table is cut down to `maxRecords`, after an add (default 10 s; tests 0). */
  countPruneIntervalMs?: number;
}

/** The lease of a draining record is renewed this many times within it. */
const RENEWALS_PER_LEASE = 3;
/** Rows changed this long before the last look are looked at again: a transaction's now() is its start. */
const RESUMABLE_OVERLAP_MS = 5000;

export const DEFAULT_DRAIN_LEASE_MS = 30_000;

/**
 * Cutting the table down to `maxRecords` reads that many entries of the age index (72 ms at
 * 100,000 rows, bench/README.md): done after an add, not in it, and at most this often, so that an
 * add costs the same whatever the table holds. Between two cuts the table may hold the records of
 * those seconds over its limit.
 */
const COUNT_PRUNE_INTERVAL_MS = 10_000;

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
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  let database: PostgresDatabase;
  try {
    database = await openPostgresDatabase({ url: options.url, maxConnections: options.maxConnections ?? 10, log, purpose: 'recoveries' });
  } catch (error) {
    throw new RecoveryStoreError('STORE_IO', `Cannot prepare the recoveries database ${redactDatabaseUrl(options.url)}: ${(error as Error).message}.`, { cause: error });
  }
  return new PostgresRecoveryStore(database, options, log);
}

class PostgresRecoveryStore implements RecoveryStore {
  readonly location: string;
  readonly #database: PostgresDatabase;
  readonly #pool: pg.Pool;
  readonly #log: (message: string) => void;
  readonly #maxRecords: number;
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  readonly #leaseMs: number;
  readonly #resumablePollMs: number;
  readonly #pending: PendingRecordWrites;
  /** The records this instance drains, whose leases it renews together. */
  readonly #draining = new Set<string>();
  readonly #renewal: NodeJS.Timeout;
  #watching: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #countPruneIntervalMs: number;
  /** performance.now() of the last cut; the cut running, and whether an add asked for another meanwhile. */
  #lastCountPrune = -Infinity;
  #countPrune: Promise<void> | undefined;
  #countPruneAgain = false;

  constructor(database: PostgresDatabase, options: PostgresRecoveryStoreOptions, log: (message: string) => void) {
    this.#database = database;
    this.#pool = database.pool;
    this.location = database.location;
    this.#log = log;
    this.#maxRecords = options.maxRecords ?? DEFAULT_MAX_RECORDS;
    this.#maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
    this.#now = options.now ?? Date.now;
    this.#leaseMs = options.drainLeaseMs ?? DEFAULT_DRAIN_LEASE_MS;
    this.#resumablePollMs = options.resumablePollMs ?? 1000;
    this.#countPruneIntervalMs = options.countPruneIntervalMs ?? COUNT_PRUNE_INTERVAL_MS;
    this.#pending = new PendingRecordWrites({
      write: (record, kind) => (kind === 'add' ? this.#addNow(record) : this.#replaceNow(record).then(() => undefined)),
      log: (message) => this.#logRedacted(message),
      limit: options.pendingLimit ?? PENDING_RECORDS_LIMIT,
      retryMs: 1000,
    });
    this.#renewal = setInterval(() => this.#renewLeases(), Math.max(10, Math.floor(this.#leaseMs / RENEWALS_PER_LEASE)));
    this.#renewal.unref();
  }

  add(record: RecoveryRecord): Promise<void> {
    return this.#run('write to', async () => {
      assertStorableRecord(record);
      this.#track(record);
      await this.#write(record, 'add');
    });
  }

  // The request body of a stored id does not change: only the summary and the response are written.
  // A retry on another instance may have taken the record meanwhile (`resumed_by`): a refresh keeps that.
  replace(record: RecoveryRecord): Promise<boolean> {
    return this.#run('write to', async () => {
      assertStorableRecord(record);
      this.#track(record);
      return this.#write(record, 'replace');
    });
  }

  watchResumable(listener: (summaries: RecoverySummary[]) => void, pollMs = this.#resumablePollMs): void {
    let since: Date | undefined;
    let polling = false;
    const poll = async (): Promise<void> => {
      if (polling || this.#closed) return;
      polling = true;
      try {
        const clock = await this.#pool.query<{ at: Date }>('SELECT now() AS at');
        const from = since ?? new Date(clock.rows[0].at.getTime() - RESUMABLE_OVERLAP_MS);
        // Complete answers, and drains still running on a live instance (a retry here waits for them).
        const { rows } = await this.#pool.query<SummaryRow>(
          `SELECT ${SUMMARY_COLUMNS} FROM switchyard_recoveries
           WHERE updated_at >= $1 AND interrupted_reason = 'client_disconnected' AND resumed_by IS NULL AND error_message IS NULL
             AND (state = 'complete' OR (state = 'draining' AND lease_expires_at >= now()))
           ORDER BY created_at ASC, seq ASC`,
          [from],
        );
        since = new Date(clock.rows[0].at.getTime() - RESUMABLE_OVERLAP_MS);
        if (rows.length > 0) listener(rows.map(toSummary));
      } catch (error) {
        this.#logRedacted(`could not look for resumable records on ${this.location}: ${(error as Error).message}`);
      } finally {
        polling = false;
      }
    };
    clearInterval(this.#watching);
    this.#watching = setInterval(() => void poll(), pollMs);
    this.#watching.unref();
  }

  // One conditional update: of two instances answering retries from one record at once, one wins.
  markResumed(requestId: string, resumedBy: string, user?: string): Promise<boolean> {
    return this.#run('write to', async () => {
      if (!isStorableRequestId(requestId)) return false;
      const result = await this.#pool.query(
        `UPDATE switchyard_recoveries SET resumed_by = $2, updated_at = now() WHERE request_id = $1 AND resumed_by IS NULL${userClause(user, 3)}`,
        user === undefined ? [requestId, resumedBy] : [requestId, resumedBy, user],
      );
      return (result.rowCount ?? 0) > 0;
    });
  }

  list(user?: string): Promise<RecoverySummary[]> {
    return this.#run('read', async () => {
      const { rows } = await this.#pool.query<SummaryRow>(
        `SELECT ${SUMMARY_COLUMNS} FROM switchyard_recoveries WHERE true${userClause(user, 1)} ORDER BY created_at DESC, seq ASC`,
        user === undefined ? [] : [user],
      );
      return rows.map(toSummary);
    });
  }

  get(requestId: string, user?: string): Promise<RecoveryRecord | undefined> {
    return this.#run('read', async () => {
      if (!isStorableRequestId(requestId)) return undefined;
      const { rows } = await this.#pool.query<RecordRow>(
        `SELECT ${SUMMARY_COLUMNS}, CASE WHEN ${EXPIRED} THEN $${user === undefined ? 2 : 3} ELSE error_message END AS error_message,
           response_body, r.body AS request_body
         FROM switchyard_recoveries JOIN switchyard_recovery_requests r USING (request_id)
         WHERE request_id = $1${userClause(user, 2)}`,
        user === undefined ? [requestId, LEASE_ERROR] : [requestId, user, LEASE_ERROR],
      );
      return rows[0] && toRecord(rows[0]);
    });
  }

  lookup(requestBodyHash: string, user?: string): Promise<RecoverySummary[]> {
    return this.#run('read', async () => {
      const { rows } = await this.#pool.query<SummaryRow>(
        `SELECT ${SUMMARY_COLUMNS} FROM switchyard_recoveries WHERE request_body_hash = $1${userClause(user, 2)} ORDER BY created_at DESC, seq ASC`,
        user === undefined ? [requestBodyHash] : [requestBodyHash, user],
      );
      return rows.map(toSummary);
    });
  }

  remove(requestId: string, user?: string): Promise<boolean> {
    return this.#run('write to', async () => {
      if (!isStorableRequestId(requestId)) return false;
      this.#draining.delete(requestId);
      const result = await this.#pool.query(`DELETE FROM switchyard_recoveries WHERE request_id = $1${userClause(user, 2)}`, user === undefined ? [requestId] : [requestId, user]);
      return (result.rowCount ?? 0) > 0;
    });
  }

  removeAll(user?: string, removeOptions: { dryRun?: boolean } = {}): Promise<number> {
    return this.#run(removeOptions.dryRun ? 'read' : 'write to', async () => {
      const values = user === undefined ? [] : [user];
      if (removeOptions.dryRun) {
        const { rows } = await this.#pool.query<{ count: string }>(`SELECT count(*) AS count FROM switchyard_recoveries WHERE true${userClause(user, 1)}`, values);
        return Number(rows[0]?.count ?? 0);
      }
      const result = await this.#pool.query(`DELETE FROM switchyard_recoveries WHERE true${userClause(user, 1)}`, values);
      return result.rowCount ?? 0;
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    clearInterval(this.#renewal);
    clearInterval(this.#watching);
    this.#pending.stop();
    await this.#countPrune;
    if (this.#pending.size > 0) await this.#pending.flush();
    if (this.#pending.size > 0) this.#log(`LOST ${this.#pending.size} recovery record(s): the recoveries database ${this.location} was still unreachable when the gateway stopped`);
    this.#closed = true;
    await this.#database.close();
  }

  async #run<T>(action: string, work: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new RecoveryStoreError('STORE_CLOSED', `The recoveries store ${this.location} is closed.`);
    try {
      return await work();
    } catch (error) {
      if (RecoveryStoreError.is(error)) throw error;
      const detail = this.#database.describe(error);
      // The driver's error could carry connection details; the cause keeps only the redacted text.
      throw new RecoveryStoreError('STORE_IO', `Cannot ${action} the recoveries database ${this.location}: ${detail}.`, { cause: new Error(detail) });
    }
  }

  #logRedacted(message: string): void {
    this.#log(this.#database.redact(message));
  }

  #track(record: RecoveryRecord): void {
    if (record.state === 'draining') this.#draining.add(record.request_id);
    else this.#draining.delete(record.request_id);
  }

  #renewLeases(): void {
    if (this.#draining.size === 0) return;
    this.#pool
      .query(`UPDATE switchyard_recoveries SET lease_expires_at = now() + $2::double precision * interval '1 millisecond' WHERE request_id = ANY($1::text[]) AND state = 'draining'`, [[...this.#draining], this.#leaseMs])
      .catch((error: unknown) => this.#logRedacted(`could not renew the leases of ${this.#draining.size} draining record(s) on ${this.location}: ${(error as Error).message}`));
  }

  /** Writes the record, or keeps it for later when the database cannot be reached. */
  async #write(record: RecoveryRecord, kind: PendingKind): Promise<boolean> {
    if (this.#pending.has(record.request_id)) return this.#pending.keep(record, kind);
    try {
      if (kind === 'add') {
        await this.#addNow(record);
        return true;
      }
      return await this.#replaceNow(record);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const kept = this.#pending.keep(record, kind);
      if (kept) this.#logRedacted(`recoveries database ${this.location} unreachable (${(error as Error).message}): record ${record.request_id} kept in memory until it is back (${this.#pending.size} waiting)`);
      return kept;
    }
  }

  async #addNow(record: RecoveryRecord): Promise<void> {
    await withClient(this.#pool, async (client) => {
      try {
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO switchyard_recoveries (request_id, created_at, interrupted_reason, state, user_name, model, protocol, provider,
             error_message, resumed_by, request_body_hash, response_body_size, response_body, lease_expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, ${LEASE_VALUE})
           ON CONFLICT (request_id) DO UPDATE SET created_at = $2, interrupted_reason = $3, state = $4, user_name = $5, model = $6,
             protocol = $7, provider = $8, error_message = $9, resumed_by = COALESCE($10, switchyard_recoveries.resumed_by), request_body_hash = $11, response_body_size = $12,
             response_body = $13, lease_expires_at = ${LEASE_VALUE}, updated_at = now()`,
          recordValues(record, this.#leaseMs),
        );
        await client.query(
          'INSERT INTO switchyard_recovery_requests (request_id, body) VALUES ($1, $2) ON CONFLICT (request_id) DO UPDATE SET body = $2',
          [record.request_id, record.request.body_raw],
        );
        await this.#pruneByAge(client);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
    this.#pruneByCountSoon();
  }

  async #replaceNow(record: RecoveryRecord): Promise<boolean> {
    const result = await this.#pool.query(
      `UPDATE switchyard_recoveries SET created_at = $2, interrupted_reason = $3, state = $4, user_name = $5, model = $6, protocol = $7,
         provider = $8, error_message = $9, resumed_by = COALESCE($10, resumed_by), request_body_hash = $11, response_body_size = $12, response_body = $13,
         lease_expires_at = ${LEASE_VALUE}, updated_at = now()
       WHERE request_id = $1`,
      recordValues(record, this.#leaseMs),
    );
    return (result.rowCount ?? 0) > 0;
  }

  /** Through the index on age, whatever the table holds: a few index pages when nothing is that old. */
  async #pruneByAge(client: pg.PoolClient): Promise<void> {
    if (this.#maxAgeMs > 0 && Number.isFinite(this.#maxAgeMs)) {
      await client.query('DELETE FROM switchyard_recoveries WHERE created_at < $1::double precision', [(this.#now() - this.#maxAgeMs) / 1000]);
    }
  }

  /** After an add, in the background: the table cut down to `maxRecords`, at most every COUNT_PRUNE_INTERVAL_MS. */
  #pruneByCountSoon(): void {
    if (this.#countPrune !== undefined) {
      this.#countPruneAgain = true;
      return;
    }
    if (performance.now() - this.#lastCountPrune < this.#countPruneIntervalMs) return;
    this.#lastCountPrune = performance.now();
    this.#countPrune = this.#pruneByCount()
      .catch((error: unknown) => this.#logRedacted(`could not trim the recoveries on ${this.location} to ${this.#maxRecords} records: ${(error as Error).message}`))
      .finally(() => {
        this.#countPrune = undefined;
        if (!this.#countPruneAgain || this.#closed) return;
        this.#countPruneAgain = false;
        this.#pruneByCountSoon();
      });
  }

  async #pruneByCount(): Promise<void> {
    const keep = Math.max(0, this.#maxRecords);
    // The identity's range bounds the number of rows (read off the primary key's ends): a table
    // that cannot hold more than `keep` is not counted.
    const { rows } = await this.#pool.query<{ bound: string | null }>('SELECT max(seq) - min(seq) + 1 AS bound FROM switchyard_recoveries');
    if (Number(rows[0]?.bound ?? 0) <= keep) return;
    // The newest `keep` stay: the one just past them is found through the index on (created_at,
    // seq), and it and everything older go.
    await this.#pool.query(
      `WITH edge AS (SELECT created_at, seq FROM switchyard_recoveries ORDER BY created_at DESC, seq DESC OFFSET $1 LIMIT 1)
       DELETE FROM switchyard_recoveries t USING edge WHERE (t.created_at, t.seq) <= (edge.created_at, edge.seq)`,
      [keep],
    );
  }
}

function userClause(user: string | undefined, position: number): string {
  return user === undefined ? '' : ` AND user_name = $${position}`;
}
