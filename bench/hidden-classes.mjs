#!/usr/bin/env node
// Hidden classes (V8 maps) the gateway makes per request, by kind: there should be none. Objects
// made the same way share a hidden class; code that makes a new one per request (an object literal
// that starts with a spread on Node 20, a literal with a getter, a `delete`) pays V8's runtime for
// it each time, and every inline cache that reads those objects sees a new shape (CONTRIBUTING.md,
// "Code"). For each path, non-stream and stream, the gateway runs twice under `--log-maps`,
// answering a few and then more requests one after another; the difference between the two runs'
// map events, per request, is what a request makes once the process is warm.
//
//   node bench/hidden-classes.mjs [--quick] [--json]        (after npm run build)
import { readFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { clientRequest } from './lib/bodies.mjs';
import { PATHS } from './lib/catalog.mjs';
import { writeGatewayConfig } from './lib/gateway-config.mjs';
import { startService } from './lib/processes.mjs';
import { setUpstreamShape } from './lib/run-throughput.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values: options } = parseArgs({ options: { quick: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } });
/** Requests of the short run (the process warms up) and of the long one. */
const [FEW, MANY] = options.quick ? [100, 600] : [300, 1500];

/** `type reason` → count, of the `map,…` lines of a V8 log. */
async function mapEvents(logFile) {
  const counts = {};
  for (const line of (await readFile(logFile, 'utf8')).split('\n')) {
    if (!line.startsWith('map,')) continue;
    const fields = line.split(',');
    const kind = [fields[1], fields[8]].filter(Boolean).join(' ');
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

const scratch = await mkdtemp(join(tmpdir(), 'switchyard-hidden-classes-'));
const services = [];
const results = [];
try {
  const upstream = await startService({ name: 'fake upstream', args: [join(ROOT, 'bench', 'fake-upstream.mjs')] });
  services.push(upstream);
  await setUpstreamShape(upstream.url, { events: 20, delayMs: 0 });
  const configFile = join(scratch, 'config.json');
  await writeGatewayConfig(configFile, upstream.url);
  let runs = 0;
  /** The map events of a gateway that answered `count` requests, one after another. */
  const eventsAfter = async (request, count) => {
    runs += 1;
    const home = join(scratch, `home-${runs}`);
    await mkdir(home);
    const logFile = join(scratch, `maps-${runs}.log`);
    const args = [join(ROOT, 'bin', 'gateway.js'), 'serve', '--port', '0', '--quiet', '--config', configFile];
    const gateway = await startService({ name: 'gateway', args, nodeArgs: ['--log-maps', '--no-log-maps-details', `--logfile=${logFile}`, '--no-logfile-per-isolate'], env: { SWITCHYARD_HOME: home } });
    const pool = new Pool(gateway.url, { connections: 1 });
    try {
      for (let sent = 0; sent < count; sent += 1) {
        const response = await pool.request({ path: request.path, method: 'POST', headers: request.headers, body: request.body, signal: AbortSignal.timeout(10_000) });
        const text = await response.body.text();
        if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${text.slice(0, 300)}`);
      }
    } finally {
      await pool.close();
      await gateway.stop();
    }
    return mapEvents(logFile);
  };
  for (const [name, path] of Object.entries(PATHS)) {
    for (const stream of [false, true]) {
      const request = clientRequest(path.client, path.model, stream);
      const few = await eventsAfter(request, FEW);
      const many = await eventsAfter(request, MANY);
      const perRequest = {};
      for (const kind of new Set([...Object.keys(few), ...Object.keys(many)])) {
        const extra = ((many[kind] ?? 0) - (few[kind] ?? 0)) / (MANY - FEW);
        if (extra > 0) perRequest[kind] = Number(extra.toFixed(3));
      }
      const total = Number(Object.values(perRequest).reduce((sum, value) => sum + value, 0).toFixed(3));
      results.push({ path: name, stream, perRequest, total });
    }
  }
} finally {
  for (const service of services.reverse()) await service.stop();
  await rm(scratch, { recursive: true, force: true });
}

if (options.json) console.log(JSON.stringify({ node: process.version, requests: [FEW, MANY], results }, null, 2));
else {
  console.log(`hidden classes made per request, warm (${MANY} against ${FEW} requests), node ${process.version}`);
  for (const result of results) {
    const kinds = Object.entries(result.perRequest).map(([kind, count]) => `${count} ${kind}`).join(', ');
    console.log(`  ${`${result.path}${result.stream ? ' stream' : ''}`.padEnd(26)} ${result.total.toFixed(2).padStart(6)}${kinds ? `   (${kinds})` : ''}`);
  }
}
