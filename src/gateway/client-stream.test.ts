import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createClientConnection } from './client-connection.js';
import { createClientStream } from './client-stream.js';

function connection() {
  let markGone!: () => void;
  const client = createClientConnection((mark) => (markGone = mark));
  return { client, goAway: () => markGone() };
}

async function readAll(stream: ReturnType<typeof createClientStream>): Promise<string> {
  let text = '';
  for await (const chunk of stream.body) text += chunk;
  return text;
}

describe('createClientStream', () => {
  it('passes writes on in order and ends', async () => {
    const stream = createClientStream({ client: connection().client });
    stream.write('a');
    stream.write(Buffer.from('b'));
    stream.end();
    expect(await readAll(stream)).toBe('ab');
  });

  it('sends a keep-alive when nothing was written for a while, and none while writes flow', async () => {
    const stream = createClientStream({ client: connection().client, keepAlive: () => ':ka\n\n', keepAliveMs: 30 });
    await sleep(80);
    stream.write('data');
    stream.end();
    const text = await readAll(stream);
    expect(text.startsWith(':ka\n\n')).toBe(true);
    expect(text.endsWith('data')).toBe(true);
  });

  it('makes the writer wait while the reader is full, and lets it go on when read', async () => {
    const stream = createClientStream({ client: connection().client });
    const big = Buffer.alloc(80 * 1024, 'x');
    const waiting = stream.write(big);
    expect(waiting).toBeInstanceOf(Promise);
    let released = false;
    void waiting!.then(() => (released = true));
    await sleep(10);
    expect(released).toBe(false);
    stream.body.read();
    await sleep(10);
    expect(released).toBe(true);
  });

  it('turns writes into no-ops once the client is gone, releasing a waiting writer', async () => {
    const { client, goAway } = connection();
    const stream = createClientStream({ client });
    const waiting = stream.write(Buffer.alloc(80 * 1024));
    goAway();
    await waiting;
    expect(stream.gone).toBe(true);
    expect(stream.write('more')).toBeUndefined();
    stream.end();
  });
});
