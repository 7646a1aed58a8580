import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { UsageTally, type UsageFields, type UsageGrouping, type UsageReport } from '../log/aggregate-usage.js';
import { ByteBatch } from '../log/byte-batch.js';
import { encodeEntryLine } from '../log/encode-entry-line.js';
import { parseEntry, type RequestLogEntry } from '../log/request-log.js';
import type { RequestLogFollowing, RequestLogSink, RequestLogSource } from '../log/request-log-store.js';
import type { RequestLogBodies } from '../log/request-log-writer.js';
import type { DayModelUsage } from '../log/usage-by-day-and-model.js';
import { openPostgresDatabase, type PostgresDatabase } from './postgres-database.js';
import { isDatabaseUnavailable } from './pending-record-writes.js';
import { withClient } from './with-client.js';

export interface PostgresRequestLogOptions {
  url: string;
  /** Entries older than this are removed (config `log.maxDays`). */
  maxAgeMs: number;
  /** The table is kept under about this size (config `log.maxMb`). */
  maxBytes: number;
  /** Failures, the loss of entries included; already redacted. */
  log: (message: string) => void;
}

/** How long entries wait to be written: one insert per this many ms under load, not one per request. */
const FLUSH_DELAY_MS = 100;
/** How soon a batch the database could not take is tried again. */
const RETRY_DELAY_MS = 1000;
/** Bytes waiting beyond this many are dropped, and the loss logged: a database away for long must not grow the memory. */
const MAX_PENDING_BYTES = 64 * 2 ** 20;
/** How often the log is pruned while the server runs. */
const PRUNE_INTERVAL_MS = 10 * 60 * 1000;
/** Rows a follower looks back over for entries committed after later ones (another instance's insert). */
const FOLLOW_LOOKBACK_ROWS = 1000;

/**
 * The rows of a batch go in by COPY, the way PostgreSQL takes many rows at once: it costs the
 * server half the CPU per row of an INSERT of the same rows (6 µs against 10-12 µs, 600 entries a
 * batch), and every request writes one. One line per row, the entry's JSON, a field separator and
 * the bodies' JSON (nothing: none). In CSV mode with these two control characters as separator
 * and quote, the JSON goes in as it is: JSON never holds a control character unescaped, so neither
 * byte nor a line feed can occur inside it, and nothing else is special in CSV.
 */
const COPY_BATCH = "COPY switchyard_request_log (entry, bodies) FROM STDIN WITH (FORMAT csv, DELIMITER E'\\x02', QUOTE E'\\x01')";
const FIELD_SEPARATOR = 0x02;

/**
 * An entry is written when its request ends, by the database's clock; its `time` is when the
 * request began, by the instance's. Entries from `since` on are looked for among the rows written
 * from this much earlier (requests of up to an hour, clocks apart by minutes), then kept by their time.
 */
const SINCE_MARGIN_MS = 60 * 60 * 1000;

const QUARTER_HOUR_MS = 15 * 60 * 1000;

/** What the database groups by for each grouping (`model` and `provider` both by upstream: the tally splits). */
const GROUP_COLUMN: Record<UsageGrouping, string> = {
  model: 'x.upstream',
  provider: 'x.upstream',
  user: 'x."user"',
  protocol: 'x.protocol',
  day: "floor(extract(epoch FROM x.time) / 900)::text",
};

/** The fields of an entry that usage sums, read from its JSON. */
const ENTRY_FIELDS = `json_to_record(entry::json) AS x(time timestamptz, "user" text, protocol text, model text, upstream text,
  input_tokens bigint, output_tokens bigint, cached_tokens bigint, cost_usd double precision)`;

/**
 * The request log on the shared PostgreSQL database (docs/team.md): every instance appends to one
 * table, and `gateway logs`, `gateway usage` and the inspector read all of it. Writing is as on
 * files: queued off the request path, written by one COPY every 100 ms. While the database cannot
 * be reached, batches wait in memory (up to 64 MB) and are written when it is back; past that,
 * or when the server stops first, the entries lost are logged as LOST.
 */
export async function openPostgresRequestLog(options: PostgresRequestLogOptions): Promise<PostgresRequestLog> {
  const database = await openPostgresDatabase({ url: options.url, maxConnections: 2, log: options.log, purpose: 'request log' });
  return new PostgresRequestLog(database, options);
}

export class PostgresRequestLog implements RequestLogSink, RequestLogSource {
  readonly location: string;
  readonly #database: PostgresDatabase;
  readonly #options: PostgresRequestLogOptions;
  /** The rows waiting for the next write, as COPY reads them. */
  #rows = new ByteBatch();
  /** Batches taken and not yet stored: the one being written, and those the database refused to take. */
  #waiting: { rows: Buffer; count: number; bytes: number }[] = [];
  #waitingBytes = 0;
  #queued = 0;
  /** Entries not even queued since the last flush: the memory for waiting batches was full. */
  #dropped = 0;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #unreachable = false;
  #lastPrune = 0;
  #closed = false;

  constructor(database: PostgresDatabase, options: PostgresRequestLogOptions) {
    this.#database = database;
    this.#options = options;
    this.location = database.location;
  }

  append(entry: RequestLogEntry, bodies?: RequestLogBodies): void {
    if (this.#waitingBytes + this.#rows.length >= MAX_PENDING_BYTES) {
      // Said once per flush, not once per request: a database away for long would flood the log.
      this.#dropped += 1;
      this.#schedule(FLUSH_DELAY_MS);
      return;
    }
    this.#rows.addText(storable(encodeEntryLine(entry)));
    this.#rows.addByte(FIELD_SEPARATOR);
    if (bodies) this.#rows.addText(storable(JSON.stringify({ request_id: entry.request_id, time: entry.time, request: bodies.request, upstream_request: bodies.upstream_request, response: bodies.response })));
    this.#rows.addByte(0x0a);
    this.#queued += 1;
    this.#schedule(FLUSH_DELAY_MS);
  }

  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#dropped > 0) {
      this.#options.log(`LOST ${this.#dropped} request log entries: the request log database ${this.location} has not taken the ${this.#waitingBytes} bytes waiting before them`);
      this.#dropped = 0;
    }
    if (this.#queued > 0) {
      const bytes = this.#rows.length;
      this.#waiting.push({ rows: this.#rows.take(), count: this.#queued, bytes });
      this.#waitingBytes += bytes;
      this.#queued = 0;
    }
    this.#writing = this.#writing.then(() => this.#writeWaiting());
    return this.#writing;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.flush();
    this.#closed = true;
    clearTimeout(this.#timer);
    const lost = this.#waiting.reduce((sum, batch) => sum + batch.count, 0);
    if (lost > 0) this.#options.log(`LOST ${lost} request log entries: the request log database ${this.location} was still unreachable when the gateway stopped`);
    this.#waiting = [];
    await this.#database.close();
  }

  async read(options: { since?: number } = {}): Promise<RequestLogEntry[]> {
    const since = options.since;
    const { rows } = await queryRedacted<{ entry: string }>(
      this.#database,
      since === undefined
        ? 'SELECT entry FROM switchyard_request_log, json_to_record(entry::json) AS x(time timestamptz) ORDER BY x.time, seq'
        : `SELECT entry FROM switchyard_request_log, json_to_record(entry::json) AS x(time timestamptz)
           WHERE logged_at >= $1 AND x.time >= $2 ORDER BY x.time, seq`,
      since === undefined ? [] : [new Date(since - SINCE_MARGIN_MS), new Date(since)],
    );
    const entries: RequestLogEntry[] = [];
    for (const row of rows) {
      const entry = parseEntry(row.entry);
      if (entry) entries.push(entry);
    }
    return entries;
  }

  /**
   * Summed by the database, group by group: only the groups travel, not the entries (100,000
   * entries sent one by one took 1.2-1.5 s). Days are the reader's own (`UsageTally`): the database
   * groups by quarter hour, the smallest step of any time zone's offset, and the tally by local day.
   */
  async sumUsage(options: { since?: number; by: UsageGrouping }): Promise<UsageReport> {
    const since = options.since;
    const column = GROUP_COLUMN[options.by];
    const { rows } = await queryRedacted<UsageGroupRow>(
      this.#database,
      `SELECT ${column} AS grouped, count(*)::float8 AS requests,
         coalesce(sum(x.input_tokens) FILTER (WHERE x.upstream IS NOT NULL), 0)::float8 AS input_tokens,
         coalesce(sum(x.output_tokens) FILTER (WHERE x.upstream IS NOT NULL), 0)::float8 AS output_tokens,
         coalesce(sum(x.cached_tokens) FILTER (WHERE x.upstream IS NOT NULL), 0)::float8 AS cached_tokens,
         coalesce(sum(x.cost_usd) FILTER (WHERE x.upstream IS NOT NULL), 0)::float8 AS cost_usd,
         coalesce(bool_or(x.upstream IS NOT NULL AND x.cost_usd IS NULL AND (x.input_tokens IS NOT NULL OR x.output_tokens IS NOT NULL)), false) AS cost_unknown
       FROM switchyard_request_log, ${ENTRY_FIELDS}
       ${since === undefined ? '' : 'WHERE logged_at >= $1 AND x.time >= $2'}
       GROUP BY 1`,
      since === undefined ? [] : [new Date(since - SINCE_MARGIN_MS), new Date(since)],
    );
    const tally = new UsageTally(options.by);
    const fields: UsageFields = { time: '', user: '', protocol: '', upstream: null, input_tokens: null, output_tokens: null, cached_tokens: null, cost_usd: null };
    for (const row of rows) {
      if (options.by === 'day') fields.time = new Date(Number(row.grouped) * QUARTER_HOUR_MS).toISOString();
      else if (options.by === 'user') fields.user = row.grouped ?? '';
      else if (options.by === 'protocol') fields.protocol = row.grouped ?? '';
      else fields.upstream = row.grouped;
      tally.addGroup(fields, {
        requests: row.requests,
        input_tokens: row.input_tokens,
        output_tokens: row.output_tokens,
        cached_tokens: row.cached_tokens,
        cost_usd: row.cost_unknown ? null : row.cost_usd,
      });
    }
    return tally.report();
  }

  async sumUsageByDayAndModel(options: { since: number; user?: string }): Promise<DayModelUsage[]> {
    const parameters: unknown[] = [new Date(options.since - SINCE_MARGIN_MS), new Date(options.since)];
    if (options.user !== undefined) parameters.push(options.user);
    const { rows } = await queryRedacted<DayModelUsage>(
      this.#database,
      `SELECT to_char(x.time AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, coalesce(x.upstream, x.model) AS model, count(*)::float8 AS requests,
         coalesce(sum(x.input_tokens), 0)::float8 AS input_tokens, coalesce(sum(x.output_tokens), 0)::float8 AS output_tokens,
         coalesce(sum(x.cached_tokens), 0)::float8 AS cached_tokens, sum(x.cost_usd)::float8 AS cost_usd
       FROM switchyard_request_log, ${ENTRY_FIELDS}
       WHERE logged_at >= $1 AND x.time >= $2${options.user === undefined ? '' : ' AND x."user" = $3'}
       GROUP BY 1, 2`,
      parameters,
    );
    return rows;
  }

  follow(): RequestLogFollowing {
    return new PostgresLogFollower(this.#database);
  }

  #schedule(delayMs: number): void {
    // Once closed, nothing is tried again: what is left was counted as lost.
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, delayMs);
    // A pending write must not keep a finished process alive (`close` flushes it).
    this.#timer.unref();
  }

  /** Writes the waiting batches in order; stops at the first the database cannot take, to try again later. */
  async #writeWaiting(): Promise<void> {
    while (this.#waiting.length > 0) {
      const batch = this.#waiting[0];
      try {
        await copyRows(this.#database, batch.rows);
        if (this.#unreachable) this.#options.log(`the request log database ${this.location} is back: ${this.#waiting.length} waiting batch(es) written`);
        this.#unreachable = false;
      } catch (error) {
        if (isDatabaseUnavailable(error)) {
          if (!this.#unreachable) this.#options.log(`request log database ${this.location} unreachable (${this.#database.describe(error)}): entries kept in memory until it is back`);
          this.#unreachable = true;
          this.#schedule(RETRY_DELAY_MS);
          return;
        }
        // The database refused the rows themselves: trying them again would fail again.
        this.#options.log(`LOST ${batch.count} request log entries: the request log database ${this.location} refused them (${this.#database.describe(error)})`);
      }
      this.#waiting.shift();
      this.#waitingBytes -= batch.bytes;
      // Written or refused: the next batch may fill its buffer again.
      this.#rows.release(batch.rows);
    }
    await this.#pruneNow();
  }

  async #pruneNow(): Promise<void> {
    const now = Date.now();
    if (now - this.#lastPrune < PRUNE_INTERVAL_MS) return;
    this.#lastPrune = now;
    try {
      await prunePostgresRequestLog(this.#database, { maxAgeMs: this.#options.maxAgeMs, maxBytes: this.#options.maxBytes });
    } catch (error) {
      this.#options.log(`could not prune the request log on ${this.location}: ${this.#database.describe(error)}`);
    }
  }
}

/**
 * Removes the entries older than `maxAgeMs`, then, when the table is larger than `maxBytes`, the
 * oldest share of rows that brings it back under (and a tenth more, so that it is not pruned again
 * at once). The share is read off the identity column's range: no count of the table. The space
 * freed is reused by later rows once PostgreSQL's autovacuum has passed.
 */
export async function prunePostgresRequestLog(database: PostgresDatabase, options: { maxAgeMs: number; maxBytes: number }): Promise<void> {
  const pool = database.pool;
  if (Number.isFinite(options.maxAgeMs)) await pool.query(`DELETE FROM switchyard_request_log WHERE logged_at < now() - $1::double precision * interval '1 millisecond'`, [options.maxAgeMs]);
  const { rows } = await pool.query<{ bytes: string; low: string | null; high: string | null }>(
    `SELECT pg_total_relation_size('switchyard_request_log') AS bytes, min(seq) AS low, max(seq) AS high FROM switchyard_request_log`,
  );
  const bytes = Number(rows[0]?.bytes ?? 0);
  if (bytes <= options.maxBytes || rows[0]?.low == null || rows[0]?.high == null) return;
  const low = Number(rows[0].low);
  const high = Number(rows[0].high);
  const share = Math.min(1, 1 - options.maxBytes / bytes + 0.1);
  await pool.query('DELETE FROM switchyard_request_log WHERE seq < $1', [Math.ceil(low + (high - low + 1) * share)]);
}

interface UsageGroupRow {
  /** The upstream, user, protocol, or quarter hour since the epoch, as the grouping asks. */
  grouped: string | null;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cost_usd: number;
  cost_unknown: boolean;
}

/**
 * Follows the table by its identity column. Two instances' inserts can commit out of order (a
 * lower number after a higher one was read), so each poll looks back over the last rows read and
 * skips those it printed.
 */
class PostgresLogFollower implements RequestLogFollowing {
  readonly #database: PostgresDatabase;
  #highest = 0;
  /** Rows up to here were there before the follower started (`skipExisting`). */
  #start = 0;
  /** Numbers printed within the look-back, so none is printed twice. */
  #seen = new Set<number>();

  constructor(database: PostgresDatabase) {
    this.#database = database;
  }

  async skipExisting(): Promise<void> {
    const { rows } = await queryRedacted<{ high: string | null }>(this.#database, 'SELECT max(seq) AS high FROM switchyard_request_log');
    this.#highest = Number(rows[0]?.high ?? 0);
    this.#start = this.#highest;
  }

  async poll(): Promise<RequestLogEntry[]> {
    const floor = Math.max(this.#start, this.#highest - FOLLOW_LOOKBACK_ROWS);
    const { rows } = await queryRedacted<{ seq: string; entry: string }>(this.#database, 
      'SELECT seq, entry FROM switchyard_request_log WHERE seq > $1 AND seq <> ALL($2::bigint[]) ORDER BY seq',
      [floor, [...this.#seen]],
    );
    const entries: RequestLogEntry[] = [];
    for (const row of rows) {
      const seq = Number(row.seq);
      this.#seen.add(seq);
      if (seq > this.#highest) this.#highest = seq;
      const entry = parseEntry(row.entry);
      if (entry) entries.push(entry);
    }
    const newFloor = Math.max(this.#start, this.#highest - FOLLOW_LOOKBACK_ROWS);
    for (const seq of this.#seen) if (seq <= newFloor) this.#seen.delete(seq);
    return entries;
  }
}

/** Writes `rows` by COPY on a connection of the pool (a connection that failed mid-copy is closed, not reused). */
function copyRows(database: PostgresDatabase, rows: Buffer): Promise<void> {
  return withClient(database.pool, (client) => {
    const copy = client.query(copyFrom(COPY_BATCH));
    return new Promise<void>((resolve, reject) => {
      copy.on('finish', resolve).on('error', reject);
      copy.end(rows);
    });
  });
}

/** A read whose failure says what the driver said, with the database's password blanked. */
async function queryRedacted<Row extends object>(database: PostgresDatabase, text: string, values: unknown[] = []): Promise<{ rows: Row[] }> {
  try {
    return await database.pool.query<Row & pg.QueryResultRow>(text, values);
  } catch (error) {
    throw new Error(`the request log database ${database.location}: ${database.describe(error)}`);
  }
}

/**
 * A JSON line as PostgreSQL's JSON functions take it: they refuse the escape of the NUL character
 * (which a client could put in a model name or a user agent), so it is stored as U+FFFD.
 */
function storable(line: string): string {
  return line.includes('\\u0000') ? line.replaceAll('\\u0000', '\\ufffd') : line;
}
