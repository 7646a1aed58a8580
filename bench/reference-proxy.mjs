#!/usr/bin/env node
// The reference of the benchmark: the thinnest Node pass-through proxy there is. node:http in,
// one undici Pool out, the bytes piped both ways, nothing parsed. Whatever the gateway measures,
// it is compared with this, measured in the same run on the same machine.
//
//   node bench/reference-proxy.mjs --upstream http://127.0.0.1:PORT [--port 0]
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { failResponse, readProxyArguments, serveUntilStopped } from './lib/proxy-process.mjs';

const { upstream, port } = readProxyArguments('bench/reference-proxy.mjs');

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
    .catch(() => failResponse(response));
});
serveUntilStopped(server, pool, port);
