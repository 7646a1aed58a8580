#!/usr/bin/env node
// Where a stream's first byte waits: one process (the gateway on a path, the thinnest translator,
// or the reference) under the closed loop of bench/run.js, same processes and pinning, with
// bench/lib/phase-observer.mjs loaded into it (`--import`), which times each request inside the
// process: from its headers parsed to its upstream request made, written to the upstream socket,
// the upstream's head read, and its first byte written to the client. What the client waits on
// top of that is the time outside the process: the request waiting to be read, and the first
// byte on its way back.
//
//   node bench/first-byte-phases.mjs <path | floor:<path> | reference> [--gemini] [--concurrency 100] [--events 20] [--warm 3] [--seconds 4] [--line] [--log-off] [--inspector-off] [--quick]
//
// A step that waits for the network waits for the process's event loop too: a read that has
// arrived is handled when the loop comes round to it, later the busier the process. Comparing
// the gateway with the floor step by step tells a step the gateway adds (a wait of its own, a
// timer, one more turn of the loop) from steps that are the same but longer. Options as
// gc-per-stream.mjs. Needs dist/.
import { OBSERVED_USAGE, readObservedArguments, withObservedProcess } from './lib/observed-streams.mjs';

/** The steps, each from the stamp before it (the request's headers parsed, for the first). */
const STEPS = [
  ['created', 'upstream request made'],
  ['sent', 'written to the upstream'],
  ['answered', "the upstream's head read"],
  ['written', 'first byte written to the client'],
];

const run = readObservedArguments(`usage: node bench/first-byte-phases.mjs ${OBSERVED_USAGE}`);

await withObservedProcess(run, 'phase-observer.mjs', async ({ loop, ask }) => {
  await loop(run.warmMs);
  await ask('phases');
  const result = await loop(run.measuredMs);
  const requests = (await ask('phases')).filter((timed) => STEPS.every(([stamp]) => Number.isFinite(timed[stamp])));
  if (requests.length === 0) throw new Error(`no stream was timed inside the process: ${result.firstError ?? 'no error reported'}`);
  console.log(`${run.label}: ${requests.length} streams of ${run.events} events at c=${run.concurrency}, first byte at the client p50 ${result.ttfbP50Ms.toFixed(2)} ms`);
  console.log(`  inside the process, ms${' '.repeat(19)}p50     p90    mean`);
  let before = () => 0;
  for (const [stamp, label] of STEPS) {
    const since = before;
    printRow(label, requests.map((timed) => timed[stamp] - since(timed)));
    before = (timed) => timed[stamp];
  }
  const total = requests.map((timed) => timed.written);
  printRow('in all', total);
  console.log(`  outside the process (the client's p50 less the process's): ${(result.ttfbP50Ms - quantile(total, 0.5)).toFixed(2)} ms`);
});

function printRow(label, values) {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  console.log(`    ${label.padEnd(36)}${[quantile(values, 0.5), quantile(values, 0.9), mean].map((value) => value.toFixed(3).padStart(8)).join('')}`);
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
