#!/usr/bin/env node
// Instructions per request, counted by valgrind's callgrind: deterministic where timings on a
// shared machine move by ±50 %, so two setups can be told apart by a few thousand instructions.
// One process (the gateway on a path, the thinnest translator, or the reference) runs under
// callgrind with counting off while it warms up (V8 compiles for tens of thousands of
// requests), then on for a fixed count of requests at c=10: non-stream, or with `--stream`
// streams of 20 records, sent at once (they come in one or two reads) or `--pace MS` apart (5 ms
// as in the bench still lets valgrind's slowness read several at a time; 50 ms makes each record a
// read of its own). Prints the user-space instructions per request, the same without V8's
// optimizing compiler (a late compile moves a run by 2-10 k), and the functions that cost most
// besides the compiler, JIT code named through node's perf map.
//
//   node bench/instructions.mjs <path | floor:<path> | reference> [--stream [--pace 0]] [--line] [--log-off] [--inspector-off] [--warm 30000] [--warm-all] [--requests 4000] [--top 20]
//
// `--warm-all` warms the gateway on every path, stream and non-stream in turn, as the bench's
// rounds do, before the measured path is counted alone: against a warm-up on that path only, it
// shows what serving several paths costs the one measured (call sites that met other shapes).
//
// `--line` keeps the gateway's stderr line (the tools run it --quiet otherwise); `--log-off` turns
// its request log off, `--inspector-off` the inspector's last requests. About 5 minutes with the defaults. Needs valgrind and dist/ (npm run build).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { clientRequest } from './lib/bodies.mjs';
import { PATHS } from './lib/catalog.mjs';
import { GATEWAY_OPTIONS, gatewaySetup, isMeasurableTarget, startFakeUpstream, startMeasuredProcess, TARGETS } from './lib/measured-process.mjs';
import { setUpstreamShape } from './lib/run-throughput.mjs';

const USAGE = `usage: node bench/instructions.mjs ${TARGETS} [--stream [--pace MS]] [--line] [--log-off] [--inspector-off] [--warm N] [--warm-all] [--requests N] [--top N]`;
const CONCURRENCY = 10;
const REQUEST_TIMEOUT_MS = 60_000;

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    stream: { type: 'boolean', default: false },
    pace: { type: 'string', default: '0' },
    ...GATEWAY_OPTIONS,
    warm: { type: 'string', default: '30000' },
    'warm-all': { type: 'boolean', default: false },
    requests: { type: 'string', default: '4000' },
    top: { type: 'string', default: '20' },
  },
});
const target = positionals[0] ?? '';
const [warm, requests, top, pace] = [options.warm, options.requests, options.top, options.pace].map(Number);
const setup = gatewaySetup(target, options);
if (!isMeasurableTarget(target) || !setup || !(warm >= 0) || !(requests >= 1) || !(top >= 0) || !(pace >= 0) || (pace > 0 && !options.stream) || (options['warm-all'] && PATHS[target] === undefined)) {
  console.error(USAGE);
  process.exit(2);
}
if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('bench/instructions.mjs needs valgrind (Debian: apt install valgrind).');
  process.exit(2);
}

const scratch = await mkdtemp(join(tmpdir(), 'switchyard-instructions-'));
const outFile = join(scratch, 'callgrind.out');
const services = [];
try {
  const upstream = await startFakeUpstream({});
  services.push(upstream);
  if (pace > 0) await setUpstreamShape(upstream.url, { events: 20, delayMs: pace });
  const { service: measured, path } = await startMeasuredProcess({
    target,
    upstreamUrl: upstream.url,
    scratch,
    wrapper: ['valgrind', '--tool=callgrind', '--smc-check=all-non-file', '--instr-atstart=no', `--callgrind-out-file=${outFile}`],
    // One thread for V8 (its compiler and collector work where callgrind counts them), no
    // full collections started by the clock (valgrind's slowness would start many), JIT names.
    nodeArgs: ['--single-threaded', '--no-memory-reducer', '--perf-basic-prof'],
    timeoutMs: 120_000,
    gateway: setup.gateway,
  });
  services.push(measured);
  const request = clientRequest(path.client, path.model, options.stream);
  const send = requestSender(measured.url, request);
  const control = (...args) => execFileSync('callgrind_control', [...args, String(measured.pid)], { stdio: 'ignore' });

  if (options['warm-all']) {
    // A share of the warm-up for each path and kind, in rounds, as the bench interleaves them.
    // A connection per request: a kept-alive one idle past the server's keep-alive timeout while
    // the other senders take their turn (valgrind is slow) would be reset under the next request.
    const senders = Object.values(PATHS).flatMap((each) => [false, true].map((stream) => requestSender(measured.url, clientRequest(each.client, each.model, stream), false)));
    const rounds = 10;
    for (let round = 0; round < rounds; round += 1) for (const sendEach of senders) await sendEach(Math.ceil(warm / rounds / senders.length));
  } else {
    await send(warm);
  }
  control('-i', 'on');
  control('-z');
  await send(requests);
  control('-d');
  const counts = await countsPerRequest(`${outFile}.1`, measured.pid, requests);
  const unit = options.stream ? 'stream' : 'request';
  const streams = pace > 0 ? `streams (records ${pace} ms apart)` : 'streams';
  console.log(`${target}${setup.label}: ${requests} ${options.stream ? streams : 'non-stream requests'} at c=${CONCURRENCY} after ${warm}${options['warm-all'] ? ' on every path' : ''}`);
  console.log(`  ${Math.round(counts.total / 1000)} k instructions per ${unit}, ${Math.round(counts.withoutCompiler / 1000)} k without V8's compiler`);
  for (const [name, count] of counts.functions.slice(0, top)) console.log(`  ${String(Math.round(count)).padStart(8)}  ${name}`);
} finally {
  for (const service of services.reverse()) await service.stop();
  await rm(scratch, { recursive: true, force: true });
}

/**
 * Sends `count` requests, `CONCURRENCY` at a time; any answer but 200 stops the tool, and so does
 * a request unanswered after `REQUEST_TIMEOUT_MS` (valgrind's first requests take seconds, not minutes).
 */
function requestSender(url, { path, headers, body }, keepAlive = true) {
  const agent = new Agent({ keepAlive, maxSockets: CONCURRENCY });
  const one = () =>
    new Promise((resolve, reject) => {
      const outgoing = httpRequest(`${url}${path}`, { method: 'POST', agent, headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }, (response) => {
        response.resume();
        response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${response.statusCode} from ${url}${path}`))));
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  return async (count) => {
    let sent = 0;
    const worker = async () => {
      while (sent < count) {
        sent += 1;
        await one();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  };
}

/** The dump's totals and functions per request; JIT code (`0x…`) named from /tmp/perf-<pid>.map. */
async function countsPerRequest(dumpFile, pid, count) {
  const mapFile = `/tmp/perf-${pid}.map`;
  const jit = (await readFile(mapFile, 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [start, size, ...name] = line.split(' ');
      return { start: Number.parseInt(start, 16), end: Number.parseInt(start, 16) + Number.parseInt(size, 16), name: name.join(' ') };
    });
  await rm(mapFile, { force: true });
  // The last mapping wins: V8 reuses the addresses of code it threw away.
  const nameOf = (address) => jit.findLast((code) => code.start <= address && address < code.end)?.name;
  const annotated = execFileSync('callgrind_annotate', ['--threshold=100', '--inclusive=no', dumpFile], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  let total = 0;
  let compiler = 0;
  const functions = new Map();
  let listing = false;
  for (const line of annotated.split('\n')) {
    const columns = /^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(.*)$/.exec(line);
    if (!columns) continue;
    const instructions = Number(columns[1].replaceAll(',', ''));
    if (columns[2].includes('PROGRAM TOTALS')) {
      total = instructions;
      listing = true;
      continue;
    }
    if (!listing) continue;
    const address = /^\?\?\?:0x([0-9a-f]+) /.exec(columns[2]);
    const name = address ? `JS ${nameOf(Number.parseInt(address[1], 16)) ?? columns[2]}` : columns[2].replace(/\s*\[\/.*$/, '').replace(/\(.*$/, '');
    if (/compiler::|_Rb_tree|Zone/.test(name)) compiler += instructions;
    else functions.set(name, (functions.get(name) ?? 0) + instructions);
  }
  return {
    total: total / count,
    withoutCompiler: (total - compiler) / count,
    functions: [...functions].map(([name, instructions]) => [name, instructions / count]).sort((a, b) => b[1] - a[1]),
  };
}
