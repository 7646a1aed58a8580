#!/usr/bin/env node
// What V8 optimizes again, round after round, in a gateway that serves every path in turn as the
// bench does: each round sends every path, non-stream and stream, at c=10 then c=100, for a short
// window each, so each path waits while the others run. V8's log (`--log-code --log-deopt`) gives
// the functions optimized (TurboFan; Maglev too on Node 22 and later) in each round and the deoptimizations. A process past its
// warm-up compiles little; one that keeps compiling the same functions round after round, with no
// deoptimization to explain it, is losing their optimized code while they wait: a closure made
// per request or per stream keeps it only as long as one such closure is alive, so a full
// collection while none is throws it away (CONTRIBUTING.md, "Code").
//
//   node bench/reoptimizations.mjs [--rounds 10] [--window 500] [--top 20] [--quick]
//
// Prints the functions compiled and the deoptimizations per round, then the functions compiled
// again most often over the second half of the rounds. Needs dist/ (npm run build).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { clientRequest } from './lib/bodies.mjs';
import { PATHS } from './lib/catalog.mjs';
import { closedLoop } from './lib/load.mjs';
import { startFakeUpstream, startMeasuredProcess } from './lib/measured-process.mjs';
import { setUpstreamShape } from './lib/run-throughput.mjs';

const USAGE = 'usage: node bench/reoptimizations.mjs [--rounds N] [--window MS] [--top N] [--quick]';
const { values: options } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    window: { type: 'string', default: '500' },
    top: { type: 'string', default: '20' },
    quick: { type: 'boolean', default: false },
  },
});
const rounds = options.quick ? 2 : Number(options.rounds);
const windowMs = options.quick ? 30 : Number(options.window);
const top = Number(options.top);
const concurrencies = options.quick ? [2] : [10, 100];
if (!(rounds >= 1) || !(windowMs > 0) || !(top >= 0)) {
  console.error(USAGE);
  process.exit(2);
}

const scratch = await mkdtemp(join(tmpdir(), 'switchyard-reoptimizations-'));
const logFile = join(scratch, 'v8.log');
const services = [];
try {
  const upstream = await startFakeUpstream({});
  services.push(upstream);
  await setUpstreamShape(upstream.url, { events: options.quick ? 3 : 20, delayMs: 5 });
  const { service } = await startMeasuredProcess({
    target: 'passthrough',
    upstreamUrl: upstream.url,
    scratch,
    nodeArgs: ['--log-code', '--log-deopt', `--logfile=${logFile}`, '--no-logfile-per-isolate'],
  });
  services.push(service);
  const kinds = Object.values(PATHS).flatMap((path) => [false, true].map((stream) => ({ request: clientRequest(path.client, path.model, stream), stream })));
  let read = 0;
  const perRound = [];
  for (let round = 1; round <= rounds; round += 1) {
    for (const { request, stream } of kinds) {
      for (const concurrency of concurrencies) {
        await closedLoop({ url: service.url, request, concurrency, warmupMs: 0, durationMs: windowMs, stream, cpuOf: () => service.cpuSeconds() });
      }
    }
    const log = await readFile(logFile, 'utf8');
    // Up to the last complete line: V8 may be writing the next one.
    const end = log.lastIndexOf('\n') + 1;
    const events = parseLog(log.slice(read, end));
    read = end;
    perRound.push(events);
    console.log(`round ${String(round).padStart(2)}: ${String(events.optimized.length).padStart(4)} functions optimized, ${events.deoptimized} deoptimizations`);
  }
  const late = perRound.slice(Math.floor(rounds / 2));
  const counts = new Map();
  for (const { optimized } of late) for (const name of optimized) counts.set(name, (counts.get(name) ?? 0) + 1);
  console.log(`optimized in rounds ${Math.floor(rounds / 2) + 1}-${rounds} (times, function):`);
  for (const [name, count] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${String(count).padStart(4)}  ${name}`);
} finally {
  for (const service of services.reverse()) await service.stop();
  await rm(scratch, { recursive: true, force: true });
}

/**
 * The optimizing compilations (`code-creation` of a JS function whose state is `*`, TurboFan, or
 * `+`, Maglev, which Node 22 and later run first) and the deoptimizations (`code-deopt`) in a
 * piece of V8's log. A function's name is its last fields
 * but one: name and position, then its state.
 */
function parseLog(text) {
  const optimized = [];
  let deoptimized = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('code-deopt,')) deoptimized += 1;
    else if (line.startsWith('code-creation,JS,') && (line.endsWith(',*') || line.endsWith(',+'))) {
      const fields = line.split(',');
      optimized.push(fields.slice(6, -2).join(',').replace(/file:\/\/\/?[^ ]*?\/(dist|node_modules)\//, '$1/').replace(/\/[^ ]*\/node_modules\//, 'node_modules/'));
    }
  }
  return { optimized, deoptimized };
}
