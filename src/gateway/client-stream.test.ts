import { EventEmitter } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createClientConnection } from './client-connection.js';
import { createClientStream, type ClientSink } from './client-stream.js';

function connection() {
  let markGone!: () => void;
  const client = createClientConnection((mark) => (markGone = mark));
  return { client, goAway: () => markGone() };
}

/** A sink that takes `capacity` writes before it is full, and records what reached it. */
function recordingSink(capacity = Infinity) {
  const drain = new EventEmitter();
  const log: string[] = [];
  let pending = 0;
  const sink: ClientSink = {
    write(chunk) {
      log.push(String(chunk));
      pending += 1;
      return pending < capacity;
    },
    once: (event, listener) => drain.once(event, listener),
    off: (event, listener) => drain.off(event, listener),
    flushHeaders: () => log.push('<headers>'),
  };
  return {
    sink,
    log,
    /** The socket took everything: a waiting writer may go on. */
    drained() {
      pending = 0;
      drain.emit('drain');
    },
  };
}

describe('createClientStream', () => {
  it('writes straight to the sink, in order, with no headers of its own when a write carries them', async () => {
    const { sink, log } = recordingSink();
    const stream = createClientStream({ sink, client: connection().client, headersWaitMs: 10 });
    expect(stream.write('a')).toBeUndefined();
    stream.write(Buffer.from('b'));
    await sleep(30);
    stream.end();
    await stream.closed;
    expect(log).toEqual(['a', 'b']);
  });

  it('sends the headers alone when nothing is written in time, then keep-alives while nothing else is', async () => {
    const { sink, log } = recordingSink();
    const stream = createClientStream({ sink, client: connection().client, keepAlive: () => ':ka', keepAliveMs: 40, headersWaitMs: 10 });
    await sleep(25);
    expect(log).toEqual(['<headers>']);
    await sleep(100);
    stream.write('data');
    stream.end();
    expect(log[0]).toBe('<headers>');
    expect(log.filter((entry) => entry === ':ka').length).toBeGreaterThanOrEqual(1);
    expect(log.at(-1)).toBe('data');
  });

  it('sends no keep-alive while writes flow', async () => {
    const { sink, log } = recordingSink();
    const stream = createClientStream({ sink, client: connection().client, keepAlive: () => ':ka', keepAliveMs: 40, headersWaitMs: 10 });
    for (let index = 0; index < 12; index += 1) {
      stream.write(`e${index}`);
      await sleep(10);
    }
    stream.end();
    expect(log).not.toContain(':ka');
    expect(log).not.toContain('<headers>');
  });

  it('makes the writer wait while the sink is full, and lets it go on at drain', async () => {
    const { sink, drained } = recordingSink(1);
    const stream = createClientStream({ sink, client: connection().client });
    const waiting = stream.write('big');
    expect(waiting).toBeInstanceOf(Promise);
    let released = false;
    void waiting!.then(() => (released = true));
    await sleep(10);
    expect(released).toBe(false);
    drained();
    await sleep(0);
    expect(released).toBe(true);
    stream.end();
  });

  it('turns writes into no-ops once the client is gone, releasing a waiting writer and closing', async () => {
    const { client, goAway } = connection();
    const { sink, log } = recordingSink(1);
    const stream = createClientStream({ sink, client });
    const waiting = stream.write('first');
    goAway();
    await waiting;
    await stream.closed;
    expect(stream.write('more')).toBeUndefined();
    expect(log).toEqual(['first']);
    stream.end();
  });

  it('does nothing at all for a client gone before the stream began', async () => {
    const { client, goAway } = connection();
    goAway();
    const { sink, log } = recordingSink();
    const stream = createClientStream({ sink, client, keepAlive: () => ':ka', keepAliveMs: 5, headersWaitMs: 5 });
    await stream.closed;
    expect(stream.write('x')).toBeUndefined();
    await sleep(20);
    expect(log).toEqual([]);
  });
});

describe('createClientStream on a Node response', () => {
  /** Serves one response written by `write`, and returns the body the client read. */
  async function serveOnce(write: (response: ServerResponse) => void): Promise<string> {
    const server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      write(response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      return await (await fetch(`http://127.0.0.1:${port}/`)).text();
    } finally {
      server.close();
    }
  }

  it('hands each write to the socket at once, not at the end of the tick, and leaves alone a cork it did not add', async () => {
    const seen: { corked: number; buffered: number }[] = [];
    const body = await serveOnce((response) => {
      const socket = response.socket!;
      const note = () => seen.push({ corked: socket.writableCorked, buffered: socket.writableLength });
      const stream = createClientStream({ sink: response, client: connection().client });
      stream.write('data: 1\n\n');
      note();
      socket.cork();
      stream.write('data: 2\n\n');
      note();
      socket.uncork();
      note();
      stream.end();
      response.end();
    });
    expect(body).toBe('data: 1\n\ndata: 2\n\n');
    // Node's own cork would hold the first write (status line, headers, event) until the next tick.
    expect(seen[0]).toEqual({ corked: 0, buffered: 0 });
    // A cork somebody else holds stays, and so do the bytes behind it, until they take it off.
    expect(seen[1]!.corked).toBe(1);
    expect(seen[1]!.buffered).toBeGreaterThan(0);
    expect(seen[2]).toEqual({ corked: 0, buffered: 0 });
  });

  it('keeps the closing event for the end of the response, so both leave in one write', async () => {
    const seen: { corked: number; buffered: number }[] = [];
    let writesToTheOs = 0;
    const body = await serveOnce((response) => {
      const socket = response.socket! as typeof response.socket & { _writev: (...args: unknown[]) => void; _write: (...args: unknown[]) => void };
      const stream = createClientStream({ sink: response, client: connection().client });
      stream.write('data: 1\n\n');
      // From here on, count what the socket hands to the OS (one call per syscall).
      for (const method of ['_writev', '_write'] as const) {
        const original = socket[method].bind(socket);
        socket[method] = (...args: unknown[]) => {
          writesToTheOs += 1;
          original(...args);
        };
      }
      stream.end('data: [DONE]\n\n');
      seen.push({ corked: socket.writableCorked, buffered: socket.writableLength });
      response.end();
    });
    expect(body).toBe('data: 1\n\ndata: [DONE]\n\n');
    expect(seen[0]!.corked).toBe(1);
    expect(seen[0]!.buffered).toBeGreaterThan(0);
    // The closing event, its chunk framing and the response's last chunk: one write.
    expect(writesToTheOs).toBe(1);
  });

  it('frames each event itself on a chunked response: one socket write per event, the last chunk at the end, the connection kept', async () => {
    const writes: string[] = [];
    const counted = new WeakSet<object>();
    const server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const socket = response.socket! as typeof response.socket & { _writev: (...args: unknown[]) => void; _write: (...args: unknown[]) => void };
      // The second request comes on the same connection: its socket is counted once.
      if (!counted.has(socket)) counted.add(socket);
      else return write(response);
      for (const method of ['_writev', '_write'] as const) {
        const original = socket[method].bind(socket);
        socket[method] = (...args: unknown[]) => {
          writes.push(method);
          original(...args);
        };
      }
      write(response);
    });
    const write = (response: ServerResponse) => {
      const stream = createClientStream({ sink: response, client: connection().client });
      stream.write('data: 1\n\n');
      stream.write(Buffer.from('data: é\n\n'));
      stream.write('');
      stream.end('data: [DONE]\n\n');
      response.end();
    };
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (data) => (received += data.toString('utf8')));
      const ask = async () => {
        const before = received.length;
        socket.write('GET / HTTP/1.1\r\nhost: x\r\n\r\n');
        for (let waited = 0; !received.slice(before).endsWith('0\r\n\r\n') && waited < 2000; waited += 10) await sleep(10);
        return received.slice(before);
      };
      for (const answer of [await ask(), await ask()]) {
        expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
        expect(answer).toMatch(/\r\nTransfer-Encoding: chunked\r\n/);
        expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe('9\r\ndata: 1\n\n\r\na\r\ndata: é\n\n\r\ne\r\ndata: [DONE]\n\n\r\n0\r\n\r\n');
      }
      socket.destroy();
    } finally {
      server.close();
    }
    // Per response: the headers with the first event, then the second event, each one plain write
    // (Node's framing would make each a `writev` of four pieces); then the closing event with the
    // last chunk and the response's end, sent together.
    expect(writes).toEqual(['_write', '_write', '_writev', '_write', '_write', '_writev']);
  });
});
