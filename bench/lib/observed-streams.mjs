// What gc-per-stream.mjs and first-byte-phases.mjs share: their options, and one measured process
// with an observer loaded into it (`node --import`) under the closed loop of streams, the fake
// upstream beside it, both pinned as the bench pins them. An observer writes what it has seen to
// $SWITCHYARD_OBSERVER_OUT/<name>-<pid>.json when the process gets SIGUSR2 (written whole, then
// renamed, so a reader never sees half).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { clientRequest } from './bodies.mjs';
import { closedLoop } from './load.mjs';
import { GATEWAY_OPTIONS, gatewaySetup, isMeasurableTarget, pinLikeTheBench, startFakeUpstream, startMeasuredProcess, TARGETS } from './measured-process.mjs';
import { setUpstreamShape } from './run-throughput.mjs';

/** The options' part of a tool's usage line. */
export const OBSERVED_USAGE = `${TARGETS} [--gemini] [--concurrency N] [--events N] [--warm S] [--seconds S] [--line] [--log-off] [--inspector-off] [--quick]`;

/**
 * The tool's command line: the target, the load (`--concurrency`, 100), the streams' records
 * (`--events`, 20, 5 ms apart), seconds of load before the window (`--warm`, 3) and in it
 * (`--seconds`, 4), the gateway's setup, and `label`, what names the process in the output.
 * Prints `usage` and exits with 2 on anything else.
 */
export function readObservedArguments(usage) {
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
  const warmMs = options.quick ? 300 : Number(options.warm) * 1000;
  const setup = gatewaySetup(target, options);
  if (!isMeasurableTarget(target) || !setup || !Number.isInteger(concurrency) || concurrency < 1 || !Number.isInteger(events) || events < 2 || !(measuredMs > 0) || !(warmMs >= 0)) {
    console.error(usage);
    process.exit(2);
  }
  const label = `${target}${setup.label}${target === 'reference' && options.gemini ? ' (Gemini)' : ''}`;
  return { target, gemini: options.gemini, concurrency, events, measuredMs, warmMs, gateway: setup.gateway, label };
}

/**
 * Starts the fake upstream and the measured process with `observer` (a file of bench/lib/)
 * loaded, runs `measure({ measured, upstreamUrl, loop, ask })`, then stops both and removes
 * their scratch folder. `loop(ms)` runs the closed loop of streams for that long and resolves
 * once every stream it started has ended; `ask(name)` has the observer write what it has seen
 * and reads it.
 */
export async function withObservedProcess(run, observer, measure) {
  const placement = pinLikeTheBench();
  const scratch = await mkdtemp(join(tmpdir(), 'switchyard-observed-'));
  const services = [];
  try {
    const upstream = await startFakeUpstream(placement);
    services.push(upstream);
    await setUpstreamShape(upstream.url, { events: run.events, delayMs: 5 });
    const { service: measured, path } = await startMeasuredProcess({
      target: run.target,
      gemini: run.gemini,
      upstreamUrl: upstream.url,
      scratch,
      nodeArgs: ['--import', new URL(observer, import.meta.url).href],
      env: { SWITCHYARD_OBSERVER_OUT: scratch },
      cpu: placement.measuredCpu,
      taskset: placement.taskset,
      gateway: run.gateway,
    });
    services.push(measured);
    const request = clientRequest(path.client, path.model, true);
    const loop = (durationMs) => closedLoop({ url: measured.url, request, concurrency: run.concurrency, warmupMs: 0, durationMs, stream: true, cpuOf: measured.cpuSeconds });
    const ask = (name) => askObserver(join(scratch, `${name}-${measured.pid}.json`), measured.pid);
    return await measure({ measured, upstreamUrl: upstream.url, loop, ask });
  } finally {
    for (const service of services.reverse()) await service.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Sends the process SIGUSR2 and waits for the file its observer writes. */
async function askObserver(file, pid) {
  await rm(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      return JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`the measured process's observer wrote nothing: ${error.message}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
