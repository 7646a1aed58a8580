#!/usr/bin/env node
// The per-event path of a translated stream, alone, in one process: the upstream's recorded SSE
// bytes → SSE parser → the upstream codec's stream decoder → collector → the client codec's stream
// encoder → the client's SSE text. No sockets, no other process: unlike the loopback scenarios of
// run.js, whose CPU figures move by ±15 % with the machine, this one repeats within a few percent,
// so it shows what a change to a codec is worth before the full suite confirms it on the wire.
// On loopback the same work costs about three times as much (caches, GC under 100 open streams).
//
//   node bench/stream-codecs.mjs [--events 20] [--quick] [--json]      (after npm run build)
import { parseArgs } from 'node:util';
import { createStreamCollector } from '../dist/core/collect-stream.js';
import { getCodec } from '../dist/protocols/codecs.js';
import { createSseParser } from '../dist/sse/parse-sse.js';
import { clientRequest, PROTOCOLS, streamRecords } from './lib/bodies.mjs';
import { median } from './lib/stats.mjs';

const { values } = parseArgs({
  options: { events: { type: 'string', default: '20' }, quick: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
});
const events = Number(values.events);
if (!Number.isInteger(events) || events < 5 || events > 10_000) {
  console.error(`--events: expected 5 to 10000, got ${values.events}`);
  process.exit(2);
}
const rounds = values.quick ? 1 : 7;
const streamsPerRound = values.quick ? 20 : 4000;

/** One stream through the whole path; returns the bytes written, so nothing is optimised away. */
function pathOf(upstream, client) {
  const chunks = streamRecords(upstream, events).map((record) => Buffer.from(record));
  const upstreamCodec = getCodec(upstream);
  const clientCodec = getCodec(client);
  const { request } = clientCodec.decodeRequest(JSON.parse(String(clientRequest(client, 'm', true).body)), { pathModel: 'm', stream: true });
  const context = { requestId: 'req_bench', created: 1, model: 'm', request: clientCodec.responseRequestOf(request) };
  return () => {
    const decoder = upstreamCodec.createStreamDecoder();
    const encoder = clientCodec.createStreamEncoder(context);
    const collector = createStreamCollector();
    let written = 0;
    const parser = createSseParser((event) => {
      for (const part of decoder.decode(event)) {
        collector.add(part);
        written += encoder.encode(part).length;
      }
    });
    for (const chunk of chunks) parser.feed(chunk);
    parser.end();
    for (const part of decoder.end()) {
      collector.add(part);
      written += encoder.encode(part).length;
    }
    return written + encoder.finish().length;
  };
}

const results = [];
for (const upstream of PROTOCOLS) {
  for (const client of PROTOCOLS) {
    if (client === upstream) continue;
    const run = pathOf(upstream, client);
    // Warm-up: the JIT settles before anything is timed.
    for (let index = 0; index < streamsPerRound; index += 1) run();
    const perStream = [];
    for (let round = 0; round < rounds; round += 1) {
      const started = process.hrtime.bigint();
      for (let index = 0; index < streamsPerRound; index += 1) run();
      perStream.push(Number(process.hrtime.bigint() - started) / streamsPerRound / 1000);
    }
    results.push({ upstream, client, microsecondsPerStream: median(perStream), bytesPerStream: run() });
  }
}

if (values.json) console.log(JSON.stringify({ events, rounds, streamsPerRound, node: process.version, results }, null, 2));
else {
  console.log(`stream codecs: ${events} upstream events per stream, median of ${rounds} rounds of ${streamsPerRound} streams, node ${process.version}`);
  for (const result of results) {
    console.log(`  ${`${result.upstream} → ${result.client}`.padEnd(42)} ${result.microsecondsPerStream.toFixed(1).padStart(7)} µs/stream  ${String(result.bytesPerStream).padStart(6)} bytes out`);
  }
}
