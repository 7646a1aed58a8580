import Anthropic from '@anthropic-ai/sdk';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

// A client that stops reading must hold the upstream back, through the gateway, instead of the
// gateway reading the whole generation into memory: the gateway writes only while the client's
// socket takes more, and reads the upstream only while it writes. The upstream here sends a
// stream far larger than what the kernel's socket buffers between the three processes can hold,
// as fast as its socket takes it, and reports when it has been kept waiting.

const EVENTS = 3000;
const DELTA_BYTES = 16 * 1024;
/** Well over the socket buffers of two loopback connections (a few MB each way). */
const STREAM_BYTES = EVENTS * DELTA_BYTES;

/** The text of delta `index`: its number first, so that order and completeness can be checked. */
function deltaText(index: number): string {
  const head = `${index}:`;
  return head + 'x'.repeat(DELTA_BYTES - head.length);
}

interface Sender {
  /** Events written so far. */
  written: number;
  /** Since when the upstream has been waiting for its socket to drain, if it is. */
  waitingSince?: number;
  done: boolean;
}

/** An OpenAI Chat upstream streaming EVENTS big deltas, each write waiting for room. */
async function startFloodingUpstream(): Promise<{ url: string; senders: Sender[]; close(): Promise<void> }> {
  const senders: Sender[] = [];
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', async () => {
      const sender: Sender = { written: 0, done: false };
      senders.push(sender);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let index = 0; index < EVENTS && !response.destroyed; index += 1) {
        const chunk = { id: 'chatcmpl-flood', object: 'chat.completion.chunk', created: 1, model: 'flood', choices: [{ index: 0, delta: { content: deltaText(index) }, finish_reason: null }] };
        const room = response.write(`data: ${JSON.stringify(chunk)}\n\n`);
        sender.written = index + 1;
        if (!room) {
          sender.waitingSince = Date.now();
          await once(response, 'drain');
          sender.waitingSince = undefined;
        }
      }
      response.end('data: {"id":"chatcmpl-flood","object":"chat.completion.chunk","created":1,"model":"flood","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
      sender.done = true;
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    senders,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Resolves once the upstream has waited for its socket for `quietMs` in a row; bounded by `timeoutMs`. */
async function upstreamHeldBack(sender: () => Sender | undefined, quietMs: number, timeoutMs: number): Promise<Sender> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const current = sender();
    if (current?.done) throw new Error('the upstream sent the whole stream while the client read nothing');
    if (current?.waitingSince !== undefined && Date.now() - current.waitingSince >= quietMs) return current;
    await sleep(20);
  }
  throw new Error(`the upstream was not held back within ${timeoutMs} ms (wrote ${sender()?.written ?? 0} of ${EVENTS} events)`);
}

/** Checks that the texts are the deltas 0..EVENTS-1, whole and in order, however they were split. */
function expectEveryDelta(text: string): void {
  expect(text.length).toBe(STREAM_BYTES);
  for (let index = 0; index < EVENTS; index += 1) {
    const delta = text.slice(index * DELTA_BYTES, (index + 1) * DELTA_BYTES);
    if (delta !== deltaText(index)) throw new Error(`delta ${index} is not what the upstream sent: ${delta.slice(0, 20)}...`);
  }
}

let upstream: Awaited<ReturnType<typeof startFloodingUpstream>>;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startFloodingUpstream();
  gateway = await startTestGateway({
    providers: { flood: { type: 'openai-chat', baseURL: `${upstream.url}/v1`, apiKey: 'sk-upstream', models: ['flood'], discoverModels: false }, mock: false },
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('a client that stops reading holds the upstream back', () => {
  it('translated (Anthropic client, Chat upstream): the upstream waits while the SDK reads nothing, then every delta arrives in order', async () => {
    const client = new Anthropic({ apiKey: 'sk-client', baseURL: gateway.url, maxRetries: 0 });
    const stream = await client.messages.create({ model: 'flood', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: 'flood' }] });
    const events = stream[Symbol.asyncIterator]();
    const first = await events.next();
    expect(first.value?.type).toBe('message_start');
    const sender = await upstreamHeldBack(() => upstream.senders.at(-1), 300, 15_000);
    // What the upstream got out is what three sockets' buffers hold, not the stream.
    expect(sender.written).toBeLessThan(EVENTS);
    let text = '';
    for (let next = await events.next(); !next.done; next = await events.next()) {
      if (next.value.type === 'content_block_delta' && next.value.delta.type === 'text_delta') text += next.value.delta.text;
    }
    expectEveryDelta(text);
  }, 60_000);

  it('passthrough (Chat client, Chat upstream): the same, through the path that forwards the upstream bytes untranslated', async () => {
    const client = new OpenAI({ apiKey: 'sk-client', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'flood', stream: true, messages: [{ role: 'user', content: 'flood' }] });
    const chunks = stream[Symbol.asyncIterator]();
    let text = (await chunks.next()).value?.choices[0]?.delta.content ?? '';
    const sender = await upstreamHeldBack(() => upstream.senders.at(-1), 300, 15_000);
    expect(sender.written).toBeLessThan(EVENTS);
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) text += next.value.choices[0]?.delta.content ?? '';
    expectEveryDelta(text);
  }, 60_000);
});
