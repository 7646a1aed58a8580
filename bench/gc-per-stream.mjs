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
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { clientRequest } from './lib/bodies.mjs';
import { closedLoop } from './lib/load.mjs';
import { GATEWAY_OPTIONS, gatewaySetup, isMeasurableTarget, pinLikeTheBench, startFakeUpstream, startMeasuredProcess, TARGETS } from './lib/measured-process.mjs';
import { cpuSecondsByThread, userAndKernelSeconds } from './lib/processes.mjs';
import { setUpstreamShape, upstreamCounters } from './lib/run-throughput.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OBSERVER = pathToFileURL(join(ROOT, 'bench', 'lib', 'gc-observer.mjs')).href;
const USAGE = `usage: node bench/gc-per-stream.mjs ${TARGETS} [--gemini] [--concurrency N] [--events N] [--warm S] [--seconds S] [--line] [--log-off] [--inspector-off] [--quick]`;

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    gemini: { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '100' },
    events: { type: 'string', default: '20' },
    warm: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '4' },
    quick: { type: 'boolean', default: false },
    ...GATEWAY_OPTIONS,
  },
});
const target = positionals[0] ?? '';
const concurrency = Number(options.concurrency);
const events = Number(options.events);
const measuredMs = options.quick ? 400 : Number(options.seconds) * 1000;
const warmMs = Number(options.warm) * 1000;
const setup = gatewaySetup(target, options);
if (!isMeasurableTarget(target) || !setup || !Number.isInteger(concurrency) || concurrency < 1 || !Number.isInteger(events) || events < 2 || !(measuredMs > 0) || !(warmMs >= 0)) {
  console.error(USAGE);
  process.exit(2);
}

const placement = pinLikeTheBench();
const scratch = await mkdtemp(join(tmpdir(), 'switchyard-gc-'));
const services = [];
try {
  const upstream = await startFakeUpstream(placement);
  services.push(upstream);
  await setUpstreamShape(upstream.url, { events, delayMs: 5 });
  const { service: measured, path } = await startMeasuredProcess({
    target,
    gemini: options.gemini,
    upstreamUrl: upstream.url,
    scratch,
    nodeArgs: ['--import', OBSERVER],
    env: { SWITCHYARD_GC_OUT: scratch },
    cpu: placement.measuredCpu,
    taskset: placement.taskset,
    gateway: setup.gateway,
  });
  services.push(measured);
  const request = clientRequest(path.client, path.model, true);
  const loop = (durationMs) => closedLoop({ url: measured.url, request, concurrency, warmupMs: 0, durationMs, stream: true, cpuOf: measured.cpuSeconds });

  await loop(options.quick ? 300 : warmMs);
  const before = await readState(measured, upstream.url);
  // Every stream the loop starts has ended when it returns, so the upstream's count is exact.
  const result = await loop(measuredMs);
  const after = await readState(measured, upstream.url);
  const streams = after.requests - before.requests;
  if (streams === 0) throw new Error(`no stream completed: ${result.firstError ?? 'no error reported'}`);
  const perStream = (key, scale) => (((after[key] - before[key]) * scale) / streams).toFixed(1);
  console.log(`${target}${setup.label}${target === 'reference' && options.gemini ? ' (Gemini)' : ''}: ${streams} streams of ${events} events at c=${concurrency}, first byte p50 ${result.ttfbP50Ms.toFixed(2)} ms`);
  console.log(`  CPU ${perStream('cpuSeconds', 1e6)} µs per stream: user ${perStream('user', 1e6)}, kernel ${perStream('kernel', 1e6)}`);
  const threadPerStream = (key) => (((after.threads[key] - before.threads[key]) * 1e6) / streams).toFixed(1);
  console.log(`  main thread ${threadPerStream('main')} µs per stream, other threads ${threadPerStream('others')} (V8's compiler and collector helpers, libuv's pool)`);
  console.log(`  collector pauses ${perStream('minorMs', 1000)} µs per stream (young generation), ${perStream('majorMs', 1000)} µs (full)`);
  console.log(`  young-generation collections ${perStream('minorCount', 1000)} per 1,000 streams, ${((after.minorMs - before.minorMs) / Math.max(after.minorCount - before.minorCount, 1)).toFixed(2)} ms each`);
} finally {
  for (const service of services.reverse()) await service.stop();
  await rm(scratch, { recursive: true, force: true });
}

/** The process's CPU time and collector totals, and the fake upstream's count of requests. */
async function readState(service, upstreamUrl) {
  const gc = await readCollectorTotals(service.pid);
  const { user, kernel } = userAndKernelSeconds(service.pid);
  const { requests } = await upstreamCounters(upstreamUrl);
  return { ...gc, user, kernel, threads: cpuSecondsByThread(service.pid), cpuSeconds: service.cpuSeconds(), requests };
}

/** Asks the process (SIGUSR2) for its collector totals and waits for the file it writes. */
async function readCollectorTotals(pid) {
  const file = join(scratch, `gc-${pid}.json`);
  await rm(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      return JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`the measured process wrote no collector totals: ${error.message}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
