#!/usr/bin/env node
// What a stream (or a request) allocates, by function: V8's sampling heap profiler over a closed
// loop on one path, counting the objects that were already collected too (what drives the
// young-generation collections), as KB per stream or request. Same processes and pinning as
// bench/run.js; the profiled process runs under the inspector, on a random loopback port.
//
//   node bench/alloc-profile.mjs <path | floor:<path> | reference> [--nonstream]
//                                [--concurrency 100] [--seconds 3] [--top 30] [--live] [--quick]
//
// --live: what the open streams hold instead, by the function that allocated it. The sampling
// counts only objects still alive; at the end of the window, with the streams still open, a full
// collection runs and the sampled survivors are read, as KB per open stream. What survives a
// young-generation collection is what it copies: this is the part of the state that costs.
//
// <path> is one of bench/lib/catalog.mjs's paths (passthrough, anthropic-to-chat,
// chat-to-gemini); `floor:<path>` is the thinnest translator on a translated path; `reference` is
// the reference proxy, sent the Chat request (`--gemini` for the Gemini one). Needs dist/ (npm run
// build).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { clientRequest } from './lib/bodies.mjs';
import { connectInspector } from './lib/inspector.mjs';
import { closedLoop } from './lib/load.mjs';
import { isMeasurableTarget, pinLikeTheBench, startFakeUpstream, startMeasuredProcess, TARGETS } from './lib/measured-process.mjs';
import { setUpstreamShape, upstreamCounters } from './lib/run-throughput.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const USAGE = `usage: node bench/alloc-profile.mjs ${TARGETS} [--gemini] [--nonstream] [--concurrency N] [--seconds S] [--top N] [--live] [--quick]`;
/** Bytes between two samples: small enough to see a 20-event stream's objects, cheap enough to keep the load real. */
const SAMPLING_INTERVAL = 4096;

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    nonstream: { type: 'boolean', default: false },
    gemini: { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '3' },
    top: { type: 'string', default: '30' },
    live: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
  },
});
const target = positionals[0];
if (!target || !isMeasurableTarget(target)) {
  console.error(USAGE);
  process.exit(2);
}
const stream = !options.nonstream;
const concurrency = Number(options.concurrency);
const measuredMs = options.quick ? 300 : Number(options.seconds) * 1000;
const warmupMs = options.quick ? 200 : 2000;

const placement = pinLikeTheBench();
const scratch = await mkdtemp(join(tmpdir(), 'switchyard-alloc-'));
const services = [];
try {
  const upstream = await startFakeUpstream(placement);
  services.push(upstream);
  // --live needs streams that last: the quick mode's instant ones would all be over when it reads.
  await setUpstreamShape(upstream.url, { events: 20, delayMs: options.quick && !options.live ? 0 : 5 });
  const { service: measured, path } = await startMeasuredProcess({
    target,
    gemini: options.gemini,
    upstreamUrl: upstream.url,
    scratch,
    nodeArgs: ['--inspect=127.0.0.1:0'],
    cpu: placement.measuredCpu,
    taskset: placement.taskset,
  });
  services.push(measured);
  const request = clientRequest(path.client, path.model, stream);
  const loop = (durationMs) => closedLoop({ url: measured.url, request, concurrency, warmupMs: 100, durationMs, stream, cpuOf: measured.cpuSeconds });

  await loop(warmupMs);
  const inspector = await connectInspector(measured.output());
  const upstreamRequests = async () => (await upstreamCounters(upstream.url)).requests;
  await inspector.call('HeapProfiler.enable');
  await inspector.call('HeapProfiler.startSampling', {
    samplingInterval: SAMPLING_INTERVAL,
    includeObjectsCollectedByMajorGC: !options.live,
    includeObjectsCollectedByMinorGC: !options.live,
  });
  let result;
  if (options.live) {
    // Read while the loop still runs: the streams open now are what the process holds.
    const running = loop(measuredMs + 2000);
    await new Promise((resolve) => setTimeout(resolve, measuredMs));
    const { openStreams: open } = await upstreamCounters(upstream.url);
    await inspector.call('HeapProfiler.collectGarbage');
    const { profile } = await inspector.call('HeapProfiler.stopSampling');
    result = await running;
    inspector.close();
    if (open === 0) throw new Error('no stream was open at the end of the window: nothing to read');
    printProfile(profile, open, { counted: `open ${stream ? 'streams' : 'requests'}`, measure: `held per open ${stream ? 'stream' : 'request'}, alive after a full collection` }, Number(options.top));
  } else {
    // Every request the loop sends, its own warm-up and the streams still ending after its window
    // included, makes one upstream request while the profiler samples: the upstream counts them.
    const before = await upstreamRequests();
    result = await loop(measuredMs);
    const { profile } = await inspector.call('HeapProfiler.stopSampling');
    const count = (await upstreamRequests()) - before;
    inspector.close();
    printProfile(profile, count, { counted: stream ? 'streams' : 'requests', measure: `allocated per ${stream ? 'stream' : 'request'}` }, Number(options.top));
  }
  if (result.errors > 0) console.log(`(${result.errors} requests failed: ${result.firstError})`);
} finally {
  for (const service of services.reverse()) await service.stop();
  await rm(scratch, { recursive: true, force: true });
}


/** Self size by function (name, file and line), in KB per stream or request, largest first. */
function printProfile(profile, count, { counted, measure }, top) {
  const bytesByFunction = new Map();
  let total = 0;
  const visit = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^file:\/\//, '').replace(ROOT, '')}:${lineNumber + 1}` : '(native)';
    const name = `${functionName || '(anonymous)'} ${where}`;
    bytesByFunction.set(name, (bytesByFunction.get(name) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) visit(child);
  };
  visit(profile.head);
  const perUnit = (bytes) => (bytes / 1024 / Math.max(count, 1)).toFixed(2).padStart(8);
  console.log(`${target}${stream ? '' : ' (non-stream)'}: ${count} ${counted} at c=${concurrency}, ${perUnit(total).trim()} KB ${measure} (sampled every ${SAMPLING_INTERVAL} bytes)`);
  console.log(`${'KB'.padStart(8)}  function`);
  for (const [name, bytes] of [...bytesByFunction].sort((left, right) => right[1] - left[1]).slice(0, top)) console.log(`${perUnit(bytes)}  ${name}`);
}
