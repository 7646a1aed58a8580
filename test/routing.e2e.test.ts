import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFixture, splitSseRecords } from './helpers/fixtures.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

/**
 * Routing as a client sees it, with the official SDKs (their own retries off) against one fake
 * OpenAI-style upstream whose behaviour each model name picks: fallback chains, retries with
 * `retry-after`, 429/503/529, a refused connection, a timeout before the head, a pool with a
 * refused key, cooldown, model limits, and a failure after the first byte (a recovery, no retry).
 */
const GOOD_KEY = 'sk-good-key-000000000002';
const BAD_KEY = 'sk-bad-key-000000000001';
const JSON_ANSWER = readFixture('openai-chat', 'text.json');
const STREAM_ANSWER = readFixture('openai-chat', 'text-usage-stream.sse');

interface Seen {
  model: string;
  key: string | undefined;
  body: any;
}

let upstream: { url: string; seen: Seen[]; close(): Promise<void> };
/** Calls so far per model, for behaviours that change from one call to the next. */
const calls = new Map<string, number>();

async function reply(model: string, body: any, key: string | undefined, response: ServerResponse): Promise<void> {
  const call = (calls.get(model) ?? 0) + 1;
  calls.set(model, call);
  const fail = (status: number, headers: Record<string, string> = {}) => {
    response.writeHead(status, Object.assign({ 'content-type': 'application/json' }, headers));
    response.end(JSON.stringify({ error: { message: `upstream says ${status}`, type: 'upstream_test', code: null } }));
  };
  if (key === `Bearer ${BAD_KEY}`) return fail(401);
  if (model === 'down') return fail(503);
  if (model === 'overloaded') return fail(529);
  if (model === 'bad-request') return fail(400);
  if (model === 'limited-long') return fail(429, { 'retry-after': '120' });
  if (model === 'limited-once' && call === 1) return fail(429, { 'retry-after-ms': '30' });
  if (model === 'flaky' && call === 1) return fail(503);
  if (model === 'limited-first-key' && key === `Bearer ${GOOD_KEY}`) return fail(429, { 'retry-after': '60' });
  if (model === 'slow-head') {
    await sleep(1500);
    if (response.destroyed) return;
  }
  if (model === 'cut-after-first') {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(splitSseRecords(STREAM_ANSWER).slice(0, 2).join(''));
    await sleep(20);
    response.destroy();
    return;
  }
  if (body.stream) {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(STREAM_ANSWER);
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON_ANSWER);
}

async function startUpstream(): Promise<typeof upstream> {
  const seen: Seen[] = [];
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const key = request.headers.authorization;
    seen.push({ model: body.model, key: key?.replace('Bearer ', ''), body });
    await reply(body.model, body, key, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on: a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let gateway: TestGateway;
let deadPort: number;

beforeAll(async () => {
  upstream = await startUpstream();
  deadPort = await closedPort();
});
afterAll(async () => {
  await upstream.close();
});
afterEach(async () => {
  await gateway?.close();
  upstream.seen.length = 0;
  calls.clear();
});

const up = (extra: Record<string, unknown> = {}) => Object.assign({ type: 'openai-chat', baseURL: `${upstream.url}/v1`, apiKey: GOOD_KEY, discoverModels: false }, extra);

async function start(config: Record<string, unknown>): Promise<OpenAI> {
  gateway = await startTestGateway(config);
  return new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'sk-client', maxRetries: 0 });
}

const ask = (model: string, extra: Record<string, unknown> = {}) => Object.assign({ model, messages: [{ role: 'user' as const, content: 'Hi' }] }, extra);
const streamed = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'Hi' }], stream: true as const });

describe('fallback chains', () => {
  it('non-stream: 503, then 529, then a refused connection fall through to the entry that answers; the headers say which and how many', async () => {
    const client = await start({
      providers: { up: up(), dead: up({ baseURL: `http://127.0.0.1:${deadPort}/v1` }) },
      aliases: { smart: ['up/down', 'up/overloaded', 'dead/anything', 'up/good'] },
    });
    const { data, response } = await client.chat.completions.create(ask('smart')).withResponse();
    expect(data.choices[0].message.content).toContain('Hi there!');
    expect(response.headers.get('x-switchyard-upstream')).toBe('up/good');
    expect(response.headers.get('x-switchyard-attempts')).toBe('4');
    expect(upstream.seen.map((entry) => entry.model)).toEqual(['down', 'overloaded', 'good']);
    const line = gateway.logs.find((entry) => entry.includes('→ up/good'))!;
    expect(line).toContain('failed-attempts=up/down:503,up/overloaded:529,dead/anything:');
  });

  it('stream: a timeout before the head moves on to the next entry, and the stream is whole', async () => {
    const client = await start({ providers: { slow: up({ timeoutMs: 200 }), up: up() }, aliases: { smart: ['slow/slow-head', 'up/good'] } });
    const { data: stream, response } = await client.chat.completions.create(streamed('smart')).withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text.length).toBeGreaterThan(0);
    expect(response.headers.get('x-switchyard-upstream')).toBe('up/good');
    expect(response.headers.get('x-switchyard-attempts')).toBe('2');
  });

  it('a 400 goes to the client at once: the next entry is not tried', async () => {
    const client = await start({ providers: { up: up() }, aliases: { smart: ['up/bad-request', 'up/good'] } });
    const error = await client.chat.completions.create(ask('smart')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(upstream.seen.map((entry) => entry.model)).toEqual(['bad-request']);
  });

  it('when every entry fails, the last error in the client protocol, listing what was tried (Anthropic SDK, translated)', async () => {
    gateway = await startTestGateway({ providers: { up: up() }, aliases: { smart: ['up/down', 'up/overloaded'] } });
    const client = new Anthropic({ baseURL: gateway.url, apiKey: 'sk-client', maxRetries: 0 });
    const error = (await client.messages.create({ model: 'smart', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] }).catch((caught: unknown) => caught)) as InstanceType<typeof Anthropic.APIError>;
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error.status).toBe(529);
    expect(error.message).toContain('Tried 2 attempts: up/down (503), up/overloaded (529)');
  });

  it('lists aliases as models', async () => {
    const client = await start({ providers: { up: up({ models: ['good'] }) }, aliases: { smart: ['up/down', 'up/good'], 'claude-*': 'up/good' } });
    const ids = (await client.models.list()).data.map((model) => model.id);
    expect(ids).toContain('smart');
    expect(ids).not.toContain('claude-*');
  });
});

describe('retries', () => {
  it('a 429 with retry-after-ms is waited for and tried again on the same target (stream)', async () => {
    const client = await start({ providers: { up: up() }, retry: { attempts: 2 } });
    const { data: stream, response } = await client.chat.completions.create(streamed('up/limited-once')).withResponse();
    for await (const _chunk of stream) void _chunk;
    expect(response.headers.get('x-switchyard-attempts')).toBe('2');
    expect(upstream.seen.map((entry) => entry.model)).toEqual(['limited-once', 'limited-once']);
    expect(gateway.logs.join('\n')).toMatch(/failed-attempts=up\/limited-once:429\+wait=30ms$/m);
  });

  it('a 503 backs off and is tried again, per the provider override', async () => {
    const client = await start({ providers: { up: up({ retry: { attempts: 3 } }) } });
    const { response } = await client.chat.completions.create(ask('up/flaky')).withResponse();
    expect(response.headers.get('x-switchyard-attempts')).toBe('2');
  });

  it('a retry-after longer than maxWaitMs moves on at once; with nothing left the client gets the 429 and its retry-after', async () => {
    const client = await start({ providers: { up: up() }, retry: { attempts: 3, maxWaitMs: 1000 }, aliases: { smart: ['up/limited-long', 'up/good'] } });
    const { response } = await client.chat.completions.create(ask('smart')).withResponse();
    expect(response.headers.get('x-switchyard-upstream')).toBe('up/good');
    expect(response.headers.get('x-switchyard-attempts')).toBe('2');
    const error = (await client.chat.completions.create(ask('up/limited-long')).catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(429);
    expect(error.headers?.get('retry-after')).toBe('120');
  });
});

describe('key pools', () => {
  it('a refused key is set aside (logged once by its last four characters) and the next key answers at once; later requests skip it', async () => {
    const client = await start({ providers: { up: up({ apiKey: [BAD_KEY, GOOD_KEY] }) } });
    for (let round = 0; round < 3; round += 1) {
      const { response } = await client.chat.completions.create(ask('up/good')).withResponse();
      expect(response.headers.get('x-switchyard-upstream')).toBe('up/good');
    }
    expect(upstream.seen.map((entry) => entry.key)).toEqual([BAD_KEY, GOOD_KEY, GOOD_KEY, GOOD_KEY]);
    const logs = gateway.logs.join('\n');
    expect(logs.match(/refused its key …0001/g)).toHaveLength(1);
    expect(logs).not.toContain(BAD_KEY);
    expect(logs).not.toContain(GOOD_KEY);
  });

  it('a 429 rests one key while the others carry on', async () => {
    const other = 'sk-other-key-00000000003';
    const client = await start({ providers: { up: up({ apiKey: [GOOD_KEY, other] }) } });
    await client.chat.completions.create(ask('up/limited-first-key'));
    await client.chat.completions.create(ask('up/good'));
    await client.chat.completions.create(ask('up/good'));
    // The first key rested after its 429: the second answered, and takes the next request too.
    expect(upstream.seen.map((entry) => entry.key)).toEqual([GOOD_KEY, other, other, other]);
  });
});

describe('cooldown', () => {
  it('a provider that failed `failures` times in a row is skipped while another target can serve', async () => {
    const client = await start({ providers: { flaky: up(), up: up() }, cooldown: { failures: 1, ms: 60_000 }, aliases: { smart: ['flaky/down', 'up/good'], only: 'flaky/down' } });
    expect((await client.chat.completions.create(ask('smart')).withResponse()).response.headers.get('x-switchyard-attempts')).toBe('2');
    expect((await client.chat.completions.create(ask('smart')).withResponse()).response.headers.get('x-switchyard-attempts')).toBe('1');
    // The only target is still tried.
    await expect(client.chat.completions.create(ask('only'))).rejects.toMatchObject({ status: 503 });
    expect(upstream.seen.map((entry) => entry.model)).toEqual(['down', 'good', 'good', 'down']);
  });
});

describe('model limits', () => {
  it('clamps max_tokens to the model, with a warning; a prompt over a context skips that target, else is a 400 saying so', async () => {
    const client = await start({
      providers: { up: up({ models: [{ id: 'good', maxOutputTokens: 100 }, { id: 'tiny', contextTokens: 5 }] }) },
      aliases: { long: ['up/tiny', 'up/good'] },
    });
    const { response } = await client.chat.completions.create(ask('up/good', { max_tokens: 32000 })).withResponse();
    expect(upstream.seen[0].body.max_completion_tokens ?? upstream.seen[0].body.max_tokens).toBe(100);
    expect(response.headers.get('x-switchyard-warnings')).toContain('clamped to 100');
    const prompt = 'a long prompt of many words that cannot fit in five tokens';
    const routed = await client.chat.completions.create({ model: 'long', messages: [{ role: 'user', content: prompt }] }).withResponse();
    expect(routed.response.headers.get('x-switchyard-upstream')).toBe('up/good');
    const error = (await client.chat.completions.create({ model: 'up/tiny', messages: [{ role: 'user', content: prompt }] }).catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/more than the context of its model: up\/tiny \(5\)/);
  });
});

describe('after the first byte', () => {
  it('a failure is an interruption with a recovery record, never a retry', async () => {
    const client = await start({ providers: { up: up() }, retry: { attempts: 3 }, aliases: { smart: ['up/cut-after-first', 'up/good'] } });
    const record = gateway.nextRecord();
    const stream = await client.chat.completions.create(streamed('smart'));
    const failed = await (async () => {
      for await (const _chunk of stream) void _chunk;
    })().catch((caught: unknown) => caught);
    expect(failed).toBeInstanceOf(Error);
    expect((await record).reason).toBe('upstream_error');
    expect(upstream.seen.map((entry) => entry.model)).toEqual(['cut-after-first']);
  });
});
