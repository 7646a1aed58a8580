import type { RetryConfig } from '../config/config-types.js';
import type { RetryAfter } from '../core/gateway-error.js';
import type { UpstreamStop } from './interruption.js';

/** What an attempt's outcome means for the plan. */
export type AttemptVerdict = 'answered' | 'retry' | 'client';

/**
 * A status the client gets at once (the request is wrong for that model: 400, 404, ...), or one
 * worth another try or target: a status in `onStatus`, and 401/403 (the provider refused its own key).
 */
export function judgeStatus(status: number, retry: RetryConfig): AttemptVerdict {
  if (status === 401 || status === 403 || retry.onStatus.includes(status)) return 'retry';
  return 'client';
}

/** An upstream's `retry-after-ms`, else `retry-after` (seconds or an HTTP date), in ms from `now`. */
export function retryAfterMs(retryAfter: RetryAfter | undefined, now: number): number | undefined {
  if (retryAfter === undefined) return undefined;
  const ms = retryAfter['retry-after-ms'];
  if (ms !== undefined) return Math.max(0, Math.ceil(Number(ms)));
  const value = retryAfter['retry-after'];
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const BACKOFF_BASE_MS = 250;

/**
 * How long to wait before try number `next` (2 for the first retry) of the same target: the
 * upstream's own advice when it gave one, else exponential backoff with jitter (so that clients
 * failed together do not come back together). Undefined when the advice is longer than
 * `maxWaitMs`: the next target is tried at once instead.
 */
export function retryDelayMs(next: number, advisedMs: number | undefined, retry: RetryConfig, random: () => number): number | undefined {
  if (advisedMs !== undefined) return advisedMs <= retry.maxWaitMs ? advisedMs : undefined;
  const ceiling = Math.min(retry.maxWaitMs, BACKOFF_BASE_MS * 2 ** (next - 2));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** Waits `ms`, or less when the upstream call is stopped (the client left under `cancel`, a shutdown). */
export function pause(ms: number, stop: UpstreamStop): Promise<void> {
  if (stop.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      stop.off('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    stop.once('abort', done);
  });
}
