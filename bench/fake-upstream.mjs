#!/usr/bin/env node
// The fake vendor of the benchmark: node:http on 127.0.0.1, answering in each of the four
// protocols with real recorded bodies. Non-stream requests get the recorded `text.json`; stream
// requests get `events` SSE records, the first at once and the next ones `delayMs` apart (with
// `burst`, the first `burst` records go out back to back, each in its own write).
//
//   node bench/fake-upstream.mjs [--port 0]       prints "listening on http://127.0.0.1:PORT"
//
// The shape of the streams is set by the runner between scenarios: POST /__bench {"events":20,
// "delayMs":10, "burst":0}. GET /__bench answers the counters. No parsing of the request beyond what a
// vendor must do to know whether to stream: the benchmark measures the proxy, not this server.
import { createServer } from 'node:http';
import { jsonAnswer, PROTOCOLS, streamRecords } from './lib/bodies.mjs';
import { LIMITED_KEY } from './lib/gateway-config.mjs';

const portArgument = process.argv.indexOf('--port');
const port = portArgument > 0 ? Number(process.argv[portArgument + 1]) : 0;

const settings = { events: 20, delayMs: 0, burst: 0 };
const counters = { requests: 0, streams: 0, streamsCut: 0, openStreams: 0, maxOpenStreams: 0, rateLimited: 0 };
const LIMITED_AUTHORIZATION = `Bearer ${LIMITED_KEY}`;
const json = Object.fromEntries(PROTOCOLS.map((protocol) => [protocol, Buffer.from(jsonAnswer(protocol))]));
let streams = buildStreams();

function buildStreams() {
  return Object.fromEntries(PROTOCOLS.map((protocol) => [protocol, streamRecords(protocol, settings.events).map((record) => Buffer.from(record))]));
}

function protocolOf(pathname) {
  if (pathname.includes(':streamGenerateContent') || pathname.includes(':generateContent')) return 'gemini';
  if (pathname.endsWith('/chat/completions')) return 'openai-chat';
  if (pathname.endsWith('/messages')) return 'anthropic-messages';
  if (pathname.endsWith('/responses')) return 'openai-responses';
  return undefined;
}

function sendStream(response, records) {
  counters.streams += 1;
  counters.openStreams += 1;
  counters.maxOpenStreams = Math.max(counters.maxOpenStreams, counters.openStreams);
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const { delayMs, burst } = settings;
  let next = 0;
  let closed = false;
  response.on('close', () => {
    if (!closed) {
      closed = true;
      counters.openStreams -= 1;
      if (next < records.length) counters.streamsCut += 1;
    }
  });
  const writeNext = () => {
    if (response.destroyed) return;
    response.write(records[next]);
    next += 1;
    if (next === records.length) response.end();
    // Each record in its own network write, as a vendor sends tokens: a proxy reads them one by one.
    else if (delayMs > 0 && next >= burst) setTimeout(writeNext, delayMs);
    else setImmediate(writeNext);
  };
  writeNext();
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const url = request.url ?? '/';
    const pathname = url.split('?', 1)[0];
    if (pathname === '/__bench') {
      if (request.method === 'POST') {
        Object.assign(settings, JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
        streams = buildStreams();
        counters.maxOpenStreams = counters.openStreams;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ settings, counters }));
      return;
    }
    const protocol = request.method === 'POST' ? protocolOf(pathname) : undefined;
    if (!protocol) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"not found"}}');
      return;
    }
    counters.requests += 1;
    // The routing scenarios' pool has one key the upstream rate-limits for an hour (bench/lib/gateway-config.mjs).
    if (request.headers.authorization === LIMITED_AUTHORIZATION) {
      counters.rateLimited += 1;
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
      response.end('{"error":{"message":"rate limited","type":"rate_limit_error"}}');
      return;
    }
    const stream = protocol === 'gemini' ? pathname.includes(':streamGenerateContent') : Buffer.concat(chunks).includes('"stream":true');
    if (stream) {
      sendStream(response, streams[protocol]);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': json[protocol].length });
    response.end(json[protocol]);
  });
});
// Proxies keep their upstream connections for a long time; do not close them under the bench.
server.keepAliveTimeout = 120_000;
server.headersTimeout = 130_000;
server.requestTimeout = 0;
server.listen(port, '127.0.0.1', 4096, () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
