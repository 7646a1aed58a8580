import type { RecoveryRecord } from '../recoveries/recovery-record.js';

/** Records kept in memory while the database is unreachable, at most (docs/team.md). */
export const PENDING_RECORDS_LIMIT = 1000;

export type PendingKind = 'add' | 'replace';

/**
 * Whether a failure means the database could not be reached (kept for later), rather than that it
 * refused the write (thrown). Errors the server sent carry a SQLSTATE; class 08 is a connection
 * exception, 57P01-57P03 a server shutting down or starting. The driver's own (a refused or
 * dropped connection, a timeout) carry none.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03';
}

/**
 * The writes of recovery records that the database could not take, in order, one per record (a
 * later refresh of the same record replaces the one kept), written again every `retryMs` until it
 * takes them. Past `limit` a record is dropped, and the log says so.
 */
export class PendingRecordWrites {
  readonly #pending = new Map<string, { record: RecoveryRecord; kind: PendingKind }>();
  readonly #write: (record: RecoveryRecord, kind: PendingKind) => Promise<void>;
  readonly #log: (message: string) => void;
  readonly #limit: number;
  readonly #retryMs: number;
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> | undefined;

  constructor(options: { write: (record: RecoveryRecord, kind: PendingKind) => Promise<void>; log: (message: string) => void; limit: number; retryMs: number }) {
    this.#write = options.write;
    this.#log = options.log;
    this.#limit = options.limit;
    this.#retryMs = options.retryMs;
  }

  get size(): number {
    return this.#pending.size;
  }

  has(requestId: string): boolean {
    return this.#pending.has(requestId);
  }

  /** false when the limit was reached: the record is lost, and the log says so. */
  keep(record: RecoveryRecord, kind: PendingKind): boolean {
    const kept = this.#pending.get(record.request_id);
    if (kept) {
      // An add not written yet stays an add: the row does not exist.
      kept.record = record;
      return true;
    }
    if (this.#pending.size >= this.#limit) {
      this.#log(`LOST recovery record ${record.request_id}: the recoveries database is unreachable and ${this.#limit} records already wait for it`);
      return false;
    }
    this.#pending.set(record.request_id, { record, kind });
    this.#timer ??= setInterval(() => void this.flush(), this.#retryMs).unref();
    return true;
  }

  /** Writes what is kept, oldest first, until the database fails again. */
  flush(): Promise<void> {
    this.#flushing ??= this.#flushNow().finally(() => (this.#flushing = undefined));
    return this.#flushing;
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #flushNow(): Promise<void> {
    let written = 0;
    for (const [requestId, entry] of this.#pending) {
      const { record } = entry;
      try {
        await this.#write(record, entry.kind);
      } catch (error) {
        if (isDatabaseUnavailable(error)) break;
        this.#log(`LOST recovery record ${requestId}: the database refused it: ${(error as Error).message}`);
      }
      // Refreshed while it was being written: the newer copy stays, now as a replacement.
      if (this.#pending.get(requestId)?.record === record) this.#pending.delete(requestId);
      else if (this.#pending.has(requestId)) this.#pending.get(requestId)!.kind = 'replace';
      written += 1;
    }
    if (written > 0) this.#log(`recoveries database back: ${written} record(s) kept in memory written, ${this.#pending.size} still waiting`);
    if (this.#pending.size === 0) this.stop();
  }
}
