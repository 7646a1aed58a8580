// The load generator: closed-loop workers on an undici Pool (no other dependency), and a holder of
// many concurrent slow streams. Every loop ends by itself: by its duration, then by a hard deadline
// that aborts whatever is still in flight.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { setMaxListeners } from 'node:events';
import { Pool } from 'undici';
import { quantile } from './stats.mjs';

const HARD_DEADLINE_SLACK_MS = 15_000;

/** One request, read to the end; for the availability probe before a scenario is measured. */
export async function probe(url, request, timeoutMs = 10_000) {
  const pool = new Pool(url, { connections: 1 });
  try {
    const response = await pool.request({ path: request.path, method: 'POST', headers: request.headers, body: request.body, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, text };
  } catch (error) {
    return { status: 0, headers: {}, text: String(error?.message ?? error) };
  } finally {
    await pool.destroy();
  }
}

/**
 * `concurrency` workers send `request` back to back for `warmupMs` (not measured) then
 * `durationMs`. Counts the requests that complete inside the measured window, their latencies
 * (and, for streams, the time to the first body byte), and the CPU time the process `pid` spent in
 * the same window. The window stays open past `durationMs` until `minRequests` have completed in
 * it (bounded by the hard deadline), so that a tiny window on a busy machine still has a figure.
 */
export async function closedLoop({ url, request, concurrency, warmupMs, durationMs, stream = false, cpuOf, minRequests = 1 }) {
  const pool = new Pool(url, { connections: concurrency, keepAliveTimeout: 60_000 });
  const abort = new AbortController();
  setMaxListeners(0, abort.signal);
  const latencies = [];
  const firstBytes = [];
  let completed = 0;
  let errors = 0;
  let firstError;
  const started = performance.now();
  const windowStart = started + warmupMs;
  const windowEnd = windowStart + durationMs;
  let cpuAtStart = NaN;
  let cpuAtEnd = NaN;
  let measuring = false;
  let windowEndedAt = windowEnd;
  let closed = false;
  const closeWindow = () => {
    cpuAtEnd = cpuOf();
    windowEndedAt = performance.now();
    measuring = false;
    closed = true;
  };
  const startTimer = setTimeout(() => {
    cpuAtStart = cpuOf();
    measuring = true;
  }, warmupMs);
  let overtime = false;
  const endTimer = setTimeout(() => {
    if (completed >= minRequests) closeWindow();
    else overtime = true;
  }, warmupMs + durationMs);
  const hardDeadline = setTimeout(() => abort.abort(), warmupMs + durationMs + HARD_DEADLINE_SLACK_MS);

  async function worker() {
    while (!closed && !abort.signal.aborted) {
      const sent = performance.now();
      let firstByte;
      try {
        const response = await pool.request({ path: request.path, method: 'POST', headers: request.headers, body: request.body, signal: abort.signal });
        for await (const chunk of response.body) {
          if (firstByte === undefined && chunk.length > 0) firstByte = performance.now();
        }
        if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
      } catch (error) {
        if (measuring) errors += 1;
        firstError ??= String(error?.message ?? error);
        // Failures do not hold the window open past its time: they are the finding.
        if (overtime && !closed) closeWindow();
        // A refused or broken connection must not turn into a busy loop.
        await sleep(5);
        continue;
      }
      if (measuring) {
        const ended = performance.now();
        completed += 1;
        latencies.push(ended - sent);
        if (stream && firstByte !== undefined) firstBytes.push(firstByte - sent);
        if (overtime && completed >= minRequests) closeWindow();
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  clearTimeout(startTimer);
  clearTimeout(endTimer);
  clearTimeout(hardDeadline);
  if (!closed) closeWindow();
  await pool.destroy();
  const seconds = (windowEndedAt - windowStart) / 1000;
  const cpu = cpuAtEnd - cpuAtStart;
  const result = {
    requests: completed,
    errors,
    seconds,
    rps: completed / seconds,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    cpuUsPerRequest: completed > 0 ? (cpu / completed) * 1e6 : NaN,
    cpuUtilization: cpu / seconds,
    ...(firstError !== undefined && { firstError }),
  };
  if (stream) Object.assign(result, { ttfbP50Ms: quantile(firstBytes, 0.5), ttfbP99Ms: quantile(firstBytes, 0.99) });
  return result;
}

/**
 * Opens `count` streams at once and reads them as they come, sampling the RSS of `pid` every
 * `sampleMs` until every stream has ended or `maxMs` has passed (then the rest are aborted).
 */
export async function holdStreams({ url, request, count, maxMs, memoryOf, sampleMs = 50 }) {
  const pool = new Pool(url, { connections: count, keepAliveTimeout: 60_000 });
  const abort = new AbortController();
  setMaxListeners(0, abort.signal);
  const baseline = memoryOf();
  let peakRssKb = baseline.rssKb;
  let live = 0;
  let maxLive = 0;
  let opened = 0;
  let completed = 0;
  let errors = 0;
  let firstError;
  let allOpenAt;
  const started = performance.now();
  const sampler = setInterval(() => {
    const { rssKb } = memoryOf();
    if (rssKb > peakRssKb) peakRssKb = rssKb;
  }, sampleMs);
  const deadline = setTimeout(() => abort.abort(), maxMs);

  async function one() {
    let counted = false;
    try {
      const response = await pool.request({ path: request.path, method: 'POST', headers: request.headers, body: request.body, signal: abort.signal });
      for await (const chunk of response.body) {
        if (!counted && chunk.length > 0) {
          counted = true;
          opened += 1;
          live += 1;
          maxLive = Math.max(maxLive, live);
          if (opened === count) allOpenAt = performance.now() - started;
        }
      }
      if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
      completed += 1;
    } catch (error) {
      if (!abort.signal.aborted) {
        errors += 1;
        firstError ??= String(error?.message ?? error);
      }
    } finally {
      if (counted) live -= 1;
    }
  }
  await Promise.all(Array.from({ length: count }, one));
  clearInterval(sampler);
  clearTimeout(deadline);
  const { rssKb: endRssKb } = memoryOf();
  peakRssKb = Math.max(peakRssKb, endRssKb);
  await pool.destroy();
  return {
    streams: count,
    opened,
    maxLive,
    completed,
    errors,
    allOpenMs: allOpenAt ?? null,
    seconds: (performance.now() - started) / 1000,
    baselineRssMb: baseline.rssKb / 1024,
    peakRssMb: peakRssKb / 1024,
    ...(firstError !== undefined && { firstError }),
  };
}
