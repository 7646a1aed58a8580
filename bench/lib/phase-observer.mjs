// Loaded into a measured process with `node --import` by bench/first-byte-phases.mjs: times each
// request's way to its first byte inside the process, from Node's and undici's diagnostics
// channels, and on SIGUSR2 writes the requests finished since the last ask to
// $SWITCHYARD_OBSERVER_OUT/phases-<pid>.json (written whole, then renamed, so a reader never sees
// half). The same in the gateway, the thinnest translator and the reference: all three take the
// request with node:http and send it upstream through an undici Pool.
//
// Per request, milliseconds since its headers were parsed (`http.server.request.start`):
//   created   undici made the upstream request (`undici:request:create`)
//   sent      its headers were written to the upstream socket (`undici:client:sendHeaders`)
//   answered  the upstream's response head was read (`undici:request:headers`)
//   written   the first write (or end) of the response to the client
// An upstream request is linked to the oldest request not yet sent upstream: the load sends each
// request's body with its headers, and the processes measured send upstream in the order they
// read requests. A request answered without an upstream request leaves the queue when it is.
// (Async ids cannot link them without async hooks, which AsyncLocalStorage would turn on, slowing
// every promise: the gateway sends upstream from a promise continuation, which runs under none.)
import { subscribe } from 'node:diagnostics_channel';
import { renameSync, writeFileSync } from 'node:fs';
import { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const folder = process.env.SWITCHYARD_OBSERVER_OUT;
/** The requests not yet sent upstream, oldest first. */
const unsent = new Set();
const byResponse = new WeakMap();
const byUpstream = new WeakMap();
let finished = [];

subscribe('http.server.request.start', ({ response }) => {
  const request = { start: performance.now(), created: NaN, sent: NaN, answered: NaN, written: NaN };
  byResponse.set(response, request);
  unsent.add(request);
});
subscribe('undici:request:create', ({ request: upstream }) => {
  const request = unsent.values().next().value;
  if (request === undefined) return;
  unsent.delete(request);
  request.created = performance.now() - request.start;
  byUpstream.set(upstream, request);
});
subscribe('undici:client:sendHeaders', ({ request: upstream }) => {
  const request = byUpstream.get(upstream);
  if (request !== undefined && Number.isNaN(request.sent)) request.sent = performance.now() - request.start;
});
subscribe('undici:request:headers', ({ request: upstream }) => {
  const request = byUpstream.get(upstream);
  if (request !== undefined && Number.isNaN(request.answered)) request.answered = performance.now() - request.start;
});
for (const name of ['write', 'end']) {
  const original = ServerResponse.prototype[name];
  ServerResponse.prototype[name] = function timedWrite(...args) {
    const request = byResponse.get(this);
    if (request !== undefined && Number.isNaN(request.written)) {
      request.written = performance.now() - request.start;
      unsent.delete(request);
      finished.push(request);
    }
    return original.apply(this, args);
  };
}

if (folder) {
  process.on('SIGUSR2', () => {
    const file = join(folder, `phases-${process.pid}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(finished));
    renameSync(`${file}.tmp`, file);
    finished = [];
  });
}
