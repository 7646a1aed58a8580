import type { UsageGrouping, UsageReport } from './aggregate-usage.js';
import { RequestLogFollower } from './follow-request-log.js';
import { readRequestLog, type RequestLogEntry } from './request-log.js';
import type { RequestLogBodies } from './request-log-writer.js';
import { sumRequestLog } from './sum-request-log.js';
import { sumUsageByDayAndModel, type DayModelUsage } from './usage-by-day-and-model.js';

/**
 * Where the request log is written: files under `$SWITCHYARD_HOME/log` (RequestLogWriter), or the
 * shared database (docs/team.md). Best effort: `append` only queues, never waits, never throws.
 */
export interface RequestLogSink {
  append(entry: RequestLogEntry, bodies?: RequestLogBodies): void;
  /** Writes what is queued; settles when it is stored (or given up, and said so). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** New entries as they are written, by this process or another: each `poll` returns those since the last. */
export interface RequestLogFollowing {
  /** Starts at the current end: only entries written from now on come out. */
  skipExisting(): Promise<void>;
  poll(): Promise<RequestLogEntry[]>;
}

/** What `gateway logs`, `gateway usage` and the inspector's usage read, from either store. */
export interface RequestLogSource {
  /** Where the log is, as it may be shown (a database's password blanked). */
  readonly location: string;
  /** The entries from `since` on, oldest first. */
  read(options?: { since?: number }): Promise<RequestLogEntry[]>;
  sumUsage(options: { since?: number; by: UsageGrouping }): Promise<UsageReport>;
  /** Sums per UTC day and model from `since` on (the inspector's chart), of `user`'s entries or everyone's: a database sends only the sums. */
  sumUsageByDayAndModel(options: { since: number; user?: string }): Promise<DayModelUsage[]>;
  follow(): RequestLogFollowing;
  close(): Promise<void>;
}

/** The log's files in `directory`, as the CLI and the inspector read them. */
export function fileRequestLogSource(directory: string): RequestLogSource {
  return {
    location: directory,
    read: (options = {}) => readRequestLog(directory, options),
    sumUsage: (options) => sumRequestLog(directory, options),
    sumUsageByDayAndModel: async ({ since, user }) => sumUsageByDayAndModel(await readRequestLog(directory, { since }), user),
    follow: () => new RequestLogFollower(directory),
    close: async () => undefined,
  };
}
