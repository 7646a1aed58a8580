import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool, type Dispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../core/gateway-error.js';
import { UpstreamStop } from '../gateway/interruption.js';
import { UpstreamCall } from './upstream-call.js';
import { createUpstreamClient, type UpstreamClient } from './upstream-client.js';

type Route = (request: IncomingMessage, response: ServerResponse) => void;
let route: Route = (_request, response) => response.end();
let server: Server;
let baseURL: string;
let upstream: UpstreamClient;

beforeAll(async () => {
  server = createServer((request, response) => route(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterEach(async () => {
  await upstream?.close();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const send = (options: { signal?: UpstreamStop; timeoutMs?: number; body?: string } = {}) => {
  upstream = createUpstreamClient();
  return upstream.send({ baseURL, path: '/chat', headers: { authorization: 'Bearer k' }, body: options.body ?? '{}', signal: options.signal, timeoutMs: options.timeoutMs ?? 5000 });
};
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createUpstreamClient', () => {
  it('sends the request as given and answers with the status, headers and the whole body', async () => {
    let seen: { url?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    route = (request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen = { url: request.url, headers: request.headers, body };
        response.writeHead(201, { 'content-type': 'application/json', 'x-extra': 'yes' }).end('{"ok":true}');
      });
    };
    const response = await send({ body: '{"model":"m"}' });
    expect(response.status).toBe(201);
    expect(response.headers['x-extra']).toBe('yes');
    expect(await response.body.text()).toBe('{"ok":true}');
    expect(seen).toMatchObject({ url: '/v1/chat', body: '{"model":"m"}' });
    expect(seen.headers).toMatchObject({ authorization: 'Bearer k', 'content-type': 'application/json' });
  });

  it('hands over every chunk in order, including those that came with the headers before anyone read', async () => {
    route = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      // The headers and the first two chunks leave in one packet.
      response.write('a');
      response.write('b');
      setTimeout(() => response.end('c'), 20);
    };
    const response = await send();
    await tick(30); // everything has arrived before the body is read
    const chunks: string[] = [];
    await response.body.consume((chunk) => void chunks.push(chunk.toString()));
    expect(chunks.join('')).toBe('abc');
  });

  it('pauses the upstream while the consumer is busy, and loses nothing', async () => {
    const total = 2000;
    route = (_request, response) => {
      response.writeHead(200);
      const piece = 'x'.repeat(1024);
      let sent = 0;
      const pump = () => {
        while (sent < total) {
          sent += 1;
          if (!response.write(piece)) return void response.once('drain', pump);
        }
        response.end();
      };
      pump();
    };
    const response = await send();
    let received = 0;
    let reads = 0;
    await response.body.consume(async (chunk) => {
      received += chunk.length;
      reads += 1;
      if (reads % 50 === 0) await tick(1);
    });
    expect(received).toBe(total * 1024);
  });

  it('delivers what arrived, then fails with a 502 when the upstream cuts the body', async () => {
    route = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: one\n\n');
      setTimeout(() => response.socket?.destroy(), 20);
    };
    const response = await send();
    const chunks: string[] = [];
    const error = await response.body.consume((chunk) => void chunks.push(chunk.toString())).catch((caught: unknown) => response.failure(caught));
    expect(chunks.join('')).toBe('data: one\n\n');
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(502);
  });

  it('stops the upstream when the consumer fails, with the consumer\'s error', async () => {
    let closed = false;
    route = (_request, response) => {
      response.writeHead(200);
      response.write('first');
      response.on('close', () => (closed = true));
    };
    const response = await send();
    const failure = new Error('the client codec broke');
    await expect(response.body.consume(() => Promise.reject(failure))).rejects.toBe(failure);
    await expect.poll(() => closed).toBe(true);
  });

  it('is cancelled by its stop signal, before and after the headers (499)', async () => {
    route = () => undefined; // never answers
    const before = new UpstreamStop();
    const waiting = send({ signal: before });
    await tick(20);
    before.abort();
    const error = await waiting.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(499);

    route = (_request, response) => void response.writeHead(200).write('partial');
    const after = new UpstreamStop();
    const response = await send({ signal: after });
    const reading = response.body.consume(() => after.abort()).catch((caught: unknown) => response.failure(caught));
    expect(((await reading) as GatewayError).status).toBe(499);

    const already = new UpstreamStop();
    already.abort();
    expect(((await send({ signal: already }).catch((caught: unknown) => caught)) as GatewayError).status).toBe(499);
  });

  it('times out a silent upstream (504), before the headers and between chunks', async () => {
    route = () => undefined;
    expect(((await send({ timeoutMs: 50 }).catch((caught: unknown) => caught)) as GatewayError).status).toBe(504);

    route = (_request, response) => void response.writeHead(200).write('one');
    const response = await send({ timeoutMs: 50 });
    const error = await response.body.text().catch((caught: unknown) => response.failure(caught));
    expect((error as GatewayError).status).toBe(504);
  });

  it('reads a body once', async () => {
    route = (_request, response) => response.end('once');
    const response = await send();
    expect(await response.body.text()).toBe('once');
    await expect(response.body.text()).rejects.toThrow('read once');
  });

  it('lets go of the raw header buffers once the head is parsed (the call keeps its controller as long as the stream)', async () => {
    route = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'x-one': 'a', 'x-two': 'b' });
      response.end('data: 1\n\n');
    };
    const controllers: Dispatcher.DispatchController[] = [];
    class WatchedCall extends UpstreamCall {
      override onRequestStart(controller: Dispatcher.DispatchController): void {
        controllers.push(controller);
        super.onRequestStart(controller);
      }
    }
    const pool = new Pool(new URL(baseURL).origin);
    try {
      const call = new WatchedCall(undefined);
      pool.dispatch({ path: '/v1/chat', method: 'POST', body: '{}' }, call);
      const head = await call.head;
      expect(head.headers['x-two']).toBe('b');
      expect(controllers[0]!.rawHeaders).toBeNull();
      expect((await call.bytes()).toString()).toBe('data: 1\n\n');
    } finally {
      await pool.close();
    }
  });
});
