#!/usr/bin/env node
// The reference of the benchmark: the thinnest Node pass-through proxy there is. node:http in,
// one undici Pool out, the bytes piped both ways, nothing parsed. Whatever the gateway measures,
// it is compared with this, measured in the same run on the same machine.
//
//   node bench/reference-proxy.mjs --upstream http://127.0.0.1:PORT [--port 0]
import { createServer } from 'node:http';
import { Pool } from 'undici';

const argument = (name, fallback) => {
  const position = process.argv.indexOf(name);
  return position > 0 ? process.argv[position + 1] : fallback;
};
const upstream = argument('--upstream');
if (!upstream) {
  console.error('usage: node bench/reference-proxy.mjs --upstream http://127.0.0.1:PORT [--port N]');
  process.exit(2);
}
const port = Number(argument('--port', '0'));

// Hop-by-hop headers (RFC 9110 §7.6.1) and the ones undici sets itself.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'host']);
const forwardable = (headers) => {
  const result = {};
  for (const name in headers) if (!HOP_BY_HOP.has(name)) result[name] = headers[name];
  return result;
};

// No connection limit: a pass-through proxy holds one upstream connection per open client request.
const pool = new Pool(upstream, { connections: null, keepAliveTimeout: 60_000 });

const server = createServer((request, response) => {
  const abort = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) abort.abort();
  });
  pool
    .request({ path: request.url, method: request.method, headers: forwardable(request.headers), body: request, signal: abort.signal })
    .then(({ statusCode, headers, body }) => {
      response.writeHead(statusCode, forwardable(headers));
      body.on('error', () => response.destroy());
      body.pipe(response);
    })
    .catch(() => {
      if (response.headersSent) response.destroy();
      else {
        response.writeHead(502, { 'content-type': 'application/json' });
        response.end('{"error":{"message":"upstream unreachable"}}');
      }
    });
});
server.keepAliveTimeout = 120_000;
server.headersTimeout = 130_000;
server.requestTimeout = 0;
server.listen(port, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => pool.close().finally(() => process.exit(0)));
});
