#!/usr/bin/env node
// Where a stream's CPU goes, in the kernel or not, and how much of it the garbage collector
// pauses the main thread: one process (the gateway on a path, the thinnest translator, or the
// reference) under the closed loop of bench/run.js, same processes and pinning, with
// bench/lib/gc-observer.mjs loaded into it (`--import`). Every figure is per stream: the count is
// the fake upstream's requests in the window, every stream of the window run to its end.
//
//   node bench/gc-per-stream.mjs <path | floor:<path> | reference> [--gemini] [--concurrency 100] [--events 20] [--warm 3] [--seconds 4] [--line] [--log-off] [--inspector-off] [--quick]
//
// `--warm` is the seconds of load before the measured window (V8 optimizes what runs once a
// stream after a few thousand streams: 3-4 s at c=100, 30 s or more at c=10). Prints CPU (every
// thread's schedstat), user and kernel time (the threads' utime and stime, counted in clock
// ticks), the main thread's CPU against the other threads' (a process still compiling shows it
// there), the main thread's collector pauses (young-generation and full collections) and the
// young-generation collections per 1,000 streams. `--line` keeps the gateway's stderr line (the
// tools run it --quiet otherwise); `--log-off` turns its request log off, `--inspector-off` the
// inspector's last requests (`inspector.keep: 0`). Needs dist/.
import { cpuSecondsByThread, userAndKernelSeconds } from './lib/processes.mjs';
import { OBSERVED_USAGE, readObservedArguments, withObservedProcess } from './lib/observed-streams.mjs';
import { upstreamCounters } from './lib/run-throughput.mjs';

const run = readObservedArguments(`usage: node bench/gc-per-stream.mjs ${OBSERVED_USAGE}`);

await withObservedProcess(run, 'gc-observer.mjs', async ({ measured, upstreamUrl, loop, ask }) => {
  /** The process's CPU time and collector totals, and the fake upstream's count of requests. */
  const readState = async () => {
    const gc = await ask('gc');
    const { user, kernel } = userAndKernelSeconds(measured.pid);
    const { requests } = await upstreamCounters(upstreamUrl);
    return { ...gc, user, kernel, threads: cpuSecondsByThread(measured.pid), cpuSeconds: measured.cpuSeconds(), requests };
  };
  await loop(run.warmMs);
  const before = await readState();
  // Every stream the loop starts has ended when it returns, so the upstream's count is exact.
  const result = await loop(run.measuredMs);
  const after = await readState();
  const streams = after.requests - before.requests;
  if (streams === 0) throw new Error(`no stream completed: ${result.firstError ?? 'no error reported'}`);
  const perStream = (key, scale) => (((after[key] - before[key]) * scale) / streams).toFixed(1);
  console.log(`${run.label}: ${streams} streams of ${run.events} events at c=${run.concurrency}, first byte p50 ${result.ttfbP50Ms.toFixed(2)} ms`);
  console.log(`  CPU ${perStream('cpuSeconds', 1e6)} µs per stream: user ${perStream('user', 1e6)}, kernel ${perStream('kernel', 1e6)}`);
  const threadPerStream = (key) => (((after.threads[key] - before.threads[key]) * 1e6) / streams).toFixed(1);
  console.log(`  main thread ${threadPerStream('main')} µs per stream, other threads ${threadPerStream('others')} (V8's compiler and collector helpers, libuv's pool)`);
  console.log(`  collector pauses ${perStream('minorMs', 1000)} µs per stream (young generation), ${perStream('majorMs', 1000)} µs (full)`);
  console.log(`  young-generation collections ${perStream('minorCount', 1000)} per 1,000 streams, ${((after.minorMs - before.minorMs) / Math.max(after.minorCount - before.minorCount, 1)).toFixed(2)} ms each`);
});
