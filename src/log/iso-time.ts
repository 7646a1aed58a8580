/** The second `#prefix` is for, and its text up to the seconds (`2026-11-28T12:00:05`). */
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/**
 * `new Date(ms).toISOString()`, for the times the log, the line and the inspector stamp on every
 * request. V8 formats a date through C's printf: about 8,000 instructions of the 185,000 the
 * request log and the stderr line added per request (counted under callgrind, bench/FINDINGS.md).
 * The part up to the seconds is kept from the last call, so most calls only add the milliseconds.
 * Times between year 0 and 9999.
 */
export function isoTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 19);
  }
  const milliseconds = Math.floor(ms) - second * 1000;
  return `${cachedPrefix}.${milliseconds < 10 ? '00' : milliseconds < 100 ? '0' : ''}${milliseconds}Z`;
}
