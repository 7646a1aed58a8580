#!/usr/bin/env node
// What an open stream holds: two heap snapshots of one process, warm and idle, then with N slow
// streams open, and their difference per open stream, by kind of object and, for closures and
// their contexts, by the source line that made them. Every young-generation collection copies
// what the open streams hold that is still young, at a cost that follows the number of objects
// more than their bytes, so this counts both. Same processes as bench/run.js; the measured one
// runs under the inspector on a random loopback port (its debugger is switched off again before
// any snapshot: while it is on, V8 keeps extra links from awaited promises for async stacks).
//
//   node bench/heap-per-stream.mjs <path | floor:<path> | reference> [--gemini] [--streams 200] [--records 1] [--top 25] [--quick]
//
// `--records N`: each stream has had N upstream records when the snapshot is taken (a long
// generation holds what its records left behind; the default is a stream just started).
// <path> is one of bench/lib/catalog.mjs's paths (the gateway); floor:<path> is the thinnest
// translator (bench/thin-translator.mjs) on a translated path; `reference` is the reference
// proxy, sent the Chat request (`--gemini` for the Gemini one). Needs dist/ (npm run build).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { clientRequest } from './lib/bodies.mjs';
import { connectInspector } from './lib/inspector.mjs';
import { closedLoop } from './lib/load.mjs';
import { isMeasurableTarget, startFakeUpstream, startMeasuredProcess, TARGETS } from './lib/measured-process.mjs';
import { setUpstreamShape, upstreamCounters } from './lib/run-throughput.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const USAGE = `usage: node bench/heap-per-stream.mjs ${TARGETS} [--gemini] [--streams N] [--records N] [--top N] [--quick]`;

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    gemini: { type: 'boolean', default: false },
    streams: { type: 'string', default: '200' },
    records: { type: 'string', default: '1' },
    top: { type: 'string', default: '25' },
    quick: { type: 'boolean', default: false },
  },
});
const target = positionals[0] ?? '';
const streams = options.quick ? 20 : Number(options.streams);
const records = Number(options.records);
if (!isMeasurableTarget(target) || !Number.isInteger(streams) || streams < 1 || streams > 5000 || !Number.isInteger(records) || records < 1) {
  console.error(USAGE);
  process.exit(2);
}

const scratch = await mkdtemp(join(tmpdir(), 'switchyard-heap-'));
const services = [];
const agent = new Agent({ connections: null, keepAliveTimeout: 1000 });
try {
  // Unpinned: a snapshot measures what is held, not what it costs.
  const upstream = await startFakeUpstream({});
  services.push(upstream);
  const { service: measured, path } = await startMeasuredProcess({ target, gemini: options.gemini, upstreamUrl: upstream.url, scratch, nodeArgs: ['--inspect=127.0.0.1:0'] });
  services.push(measured);
  const inspector = await openInspector(measured.output());
  // Script ids to file names, for the closures' source lines; then the debugger goes off again.
  await inspector.call('Debugger.enable');
  await inspector.call('Debugger.disable');

  // Warm: the JIT settles and the process's one-off objects (pools, caches) are made.
  const clientCall = clientRequest(path.client, path.model, true);
  await setUpstreamShape(upstream.url, { events: 20, delayMs: 0 });
  await closedLoop({ url: measured.url, request: clientCall, concurrency: 10, warmupMs: 0, durationMs: options.quick ? 300 : 1500, stream: true, cpuOf: measured.cpuSeconds });
  const idle = countObjects(await inspector.snapshot());

  // Slow streams: the first `records` records at once, the next ones seconds apart, so all are
  // open at once.
  await setUpstreamShape(upstream.url, { events: records + 4, delayMs: 4000, burst: records });
  const open = Array.from({ length: streams }, () => openStream(measured.url, clientCall));
  await Promise.all(open.map((stream) => stream.started));
  const deadline = Date.now() + 10_000 + records * streams * 0.05;
  const ready = () => open.every((stream) => stream.events() >= records);
  while (((await upstreamCounters(upstream.url)).openStreams < streams || !ready()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!ready()) console.error(`heap-per-stream: not every stream had its ${records} records before the deadline`);
  const busy = countObjects(await inspector.snapshot());
  const stillOpen = (await upstreamCounters(upstream.url)).openStreams;
  inspector.close();
  for (const stream of open) stream.abort();
  printDifference(idle, busy, streams, stillOpen, Number(options.top));
} finally {
  await agent.destroy().catch(() => undefined);
  for (const service of services.reverse()) await service.stop();
  await rm(scratch, { recursive: true, force: true });
}

/**
 * A stream left open: `started` resolves with its first bytes; `events` counts the SSE events
 * received (their blank lines); `abort` lets it go.
 */
function openStream(url, call) {
  const controller = new AbortController();
  let events = 0;
  const started = request(`${url}${call.path}`, { method: 'POST', headers: call.headers, body: call.body, signal: controller.signal, dispatcher: agent }).then(async (response) => {
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${(await response.body.text()).slice(0, 200)}`);
    // Read on in the background; the abort at the end ends it.
    response.body.on('error', () => undefined).on('data', (chunk) => (events += chunk.toString('latin1').split(/\r?\n\r?\n/).length - 1));
  });
  return { started, events: () => events, abort: () => controller.abort() };
}


/**
 * Objects of a snapshot, counted and summed by kind: `type name` (a constructor's name for
 * objects, the kind for strings and arrays), and for closures and contexts the script and line
 * of the function (for a context: of a closure that uses it).
 */
function countObjects({ snapshot, scripts }) {
  const { meta } = snapshot.snapshot;
  const nodeFields = meta.node_fields.length;
  const edgeFields = meta.edge_fields.length;
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const [typeAt, nameAt, sizeAt, edgesAt] = ['type', 'name', 'self_size', 'edge_count'].map((field) => meta.node_fields.indexOf(field));
  const { nodes, edges, strings, locations } = snapshot;
  const whereOf = new Map();
  for (let index = 0; index < locations.length; index += 4) {
    const script = (scripts.get(String(locations[index + 1])) ?? '?').replace(/^file:\/\//, '').replace(ROOT, '');
    whereOf.set(locations[index], `${script}:${locations[index + 2] + 1}`);
  }
  // A context is named after a closure that holds it.
  const contextOwner = new Map();
  let edge = 0;
  for (let node = 0; node < nodes.length; node += nodeFields) {
    const count = nodes[node + edgesAt];
    if (nodeTypes[nodes[node + typeAt]] === 'closure') {
      for (let offset = edge; offset < edge + count; offset += 1) {
        const at = offset * edgeFields;
        if (edgeTypes[edges[at]] === 'internal' && strings[edges[at + 1]] === 'context') contextOwner.set(edges[at + 2], node);
      }
    }
    edge += count;
  }
  const closureName = (node) => `${strings[nodes[node + nameAt]] || '(anonymous)'} ${whereOf.get(node) ?? '(native)'}`;
  const kinds = new Map();
  for (let node = 0; node < nodes.length; node += nodeFields) {
    const type = nodeTypes[nodes[node + typeAt]];
    const name = strings[nodes[node + nameAt]];
    let kind;
    if (type === 'closure') kind = `closure ${closureName(node)}`;
    else if (type === 'object' && name === 'system / Context') kind = contextOwner.has(node) ? `context of ${closureName(contextOwner.get(node))}` : 'context';
    else if (type.includes('string') || type === 'number') kind = type;
    else kind = `${type} ${name.slice(0, 60)}`;
    const entry = kinds.get(kind) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += nodes[node + sizeAt];
    kinds.set(kind, entry);
  }
  return kinds;
}

function printDifference(idle, busy, streams, stillOpen, top) {
  const rows = [];
  let bytes = 0;
  let count = 0;
  for (const [kind, after] of busy) {
    const before = idle.get(kind) ?? { count: 0, bytes: 0 };
    const row = { kind, count: (after.count - before.count) / streams, bytes: (after.bytes - before.bytes) / streams };
    bytes += row.bytes;
    count += row.count;
    if (Math.abs(row.count) >= 0.5) rows.push(row);
  }
  console.log(`${target}: ${streams} streams open (${stillOpen} at the fake upstream), ${(bytes / 1024).toFixed(2)} KB and ${count.toFixed(0)} objects per open stream`);
  const print = (title, list) => {
    console.log(`\n${title}\n${'objects'.padStart(8)} ${'bytes'.padStart(7)}  kind`);
    for (const row of list.slice(0, top)) console.log(`${row.count.toFixed(1).padStart(8)} ${row.bytes.toFixed(0).padStart(7)}  ${row.kind}`);
  };
  print('by kind, most objects first', rows.filter((row) => !/^(closure|context)/.test(row.kind)).sort((left, right) => right.count - left.count));
  const own = rows.filter((row) => /^(closure|context)/.test(row.kind)).sort((left, right) => right.count - left.count);
  const total = own.reduce((sum, row) => ({ count: sum.count + row.count, bytes: sum.bytes + row.bytes }), { count: 0, bytes: 0 });
  print(`closures and their contexts (${total.count.toFixed(0)} objects, ${(total.bytes / 1024).toFixed(2)} KB), by the function`, own);
}

/** The inspector of the measured process, with heap snapshots and the names of its scripts. */
async function openInspector(output) {
  const inspector = await connectInspector(output);
  const scripts = new Map();
  let chunks = [];
  inspector.on('Debugger.scriptParsed', (script) => scripts.set(script.scriptId, script.url));
  inspector.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => chunks.push(chunk));
  return {
    call: inspector.call,
    /** A snapshot (V8 collects garbage first) and the script names seen so far. */
    async snapshot() {
      chunks = [];
      await inspector.call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      return { snapshot: JSON.parse(chunks.join('')), scripts };
    },
    close: inspector.close,
  };
}
