import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOREM } from '../src/providers/mock/mock-models.js';
import { openRecoveryStore } from '../src/recoveries/recovery-store.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { readFixture } from './helpers/fixtures.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

const PIECES = 30;
/** What mock-slow streams with PIECES pieces. */
const SLOW_TEXT = Array.from({ length: PIECES }, (_, index) => (index === 0 ? '' : ' ') + LOREM.split(' ')[index % LOREM.split(' ').length]).join('');

let gateway: TestGateway;
let upstream: FakeUpstream;

beforeAll(async () => {
  upstream = await startFakeUpstream((request) =>
    JSON.parse(request.body).model === 'stalls'
      ? // Three records, then a pause longer than the provider's timeout.
        { sse: readFixture('openai-chat', 'text-stream.sse'), delayMs: 5, stallAfter: 3, stallMs: 1500 }
      : { sse: readFixture('openai-chat', 'text-stream.sse'), breakAfter: 5 },
  );
  gateway = await startTestGateway({
    providers: {
      mock: { type: 'mock', slowIntervalMs: 15, slowPieces: PIECES },
      broken: { type: 'openai-chat', baseURL: `${upstream.url}/v1`, models: ['breaks-mid-stream'], discoverModels: false },
      stalling: { type: 'openai-chat', baseURL: `${upstream.url}/v1`, models: ['stalls'], discoverModels: false, timeoutMs: 300 },
    },
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

/** Streams `model` through the OpenAI SDK as alice until the stream fails: the text it got, and the error. */
async function streamUntilFailure(model: string): Promise<{ text: string; failure: any }> {
  const client = new OpenAI({ apiKey: 'sk-alice', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const stream = await client.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'x' }] });
  let text = '';
  const failure = await (async () => {
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
  })().catch((error: unknown) => error);
  return { text, failure };
}

function api(path: string, key: string, init: RequestInit = {}) {
  return fetch(`${gateway.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers } }).then(
    async (response) => ({ status: response.status, body: (await response.json()) as any }),
  );
}

/** Starts a stream with the openai SDK, reads its first chunk, then walks away. */
async function streamAndAbandon(key: string, body: OpenAI.ChatCompletionCreateParamsStreaming, headers: Record<string, string> = {}) {
  const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const recorded = gateway.nextRecord();
  const { data: stream, response } = await client.chat.completions.create(body, { headers }).withResponse();
  const iterator = stream[Symbol.asyncIterator]();
  await iterator.next();
  await iterator.next();
  stream.controller.abort();
  const generation = await recorded;
  return { requestId: response.headers.get('x-request-id')!, generation };
}

describe('recoveries', () => {
  it('keeps the whole response of a stream whose client went away (drain), findable by the original body', async () => {
    const body = { model: 'mock-slow', stream: true as const, temperature: 0.2, messages: [{ role: 'user' as const, content: 'tell me a story' }] };
    const { requestId, generation } = await streamAndAbandon('sk-alice', body);
    expect(generation.reason).toBe('client_disconnected');

    // The same body, keys in another order and other whitespace, finds it.
    const reordered = `{\n  "messages": [ { "content": "tell me a story", "role": "user" } ],\n  "temperature": 0.2, "stream": true,\n  "model": "mock-slow"\n}`;
    const lookup = await api('/v1/recoveries/lookup', 'sk-alice', { method: 'POST', body: reordered });
    expect(lookup.status).toBe(200);
    expect(lookup.body.items).toEqual([
      expect.objectContaining({ request_id: requestId, interrupted_reason: 'client_disconnected', request_body_hash: expect.stringMatching(/^[0-9a-f]{16}$/), created_at: expect.any(Number) }),
    ]);
    // A changed value does not.
    const changed = await api('/v1/recoveries/lookup', 'sk-alice', { method: 'POST', body: JSON.stringify({ ...body, temperature: 0.3 }) });
    expect(changed.body.items).toEqual([]);

    const record = await api(`/v1/recoveries/${requestId}`, 'sk-alice');
    expect(record.status).toBe(200);
    expect(JSON.parse(record.body.request.body_raw)).toEqual(body);
    const response = JSON.parse(record.body.response.body_raw);
    expect(response.object).toBe('chat.completion');
    expect(response.choices[0].message.content).toBe(SLOW_TEXT);
    expect(response.choices[0].finish_reason).toBe('stop');
    expect(record.body.response.response_body_size).toBe(Buffer.byteLength(record.body.response.body_raw));
  });

  it('keeps what arrived when the client asks to cancel on disconnect', async () => {
    const { requestId } = await streamAndAbandon(
      'sk-alice',
      { model: 'mock-slow', stream: true, messages: [{ role: 'user', content: 'cancel me' }] },
      { 'x-switchyard-on-disconnect': 'cancel' },
    );
    const record = await api(`/v1/recoveries/${requestId}`, 'sk-alice');
    const content: string = JSON.parse(record.body.response.body_raw).choices[0].message.content;
    expect(content.length).toBeGreaterThan(0);
    expect(content.length).toBeLessThan(SLOW_TEXT.length);
    expect(SLOW_TEXT.startsWith(content)).toBe(true);
  });

  it('keeps an upstream that breaks mid-stream, and tells the client in its protocol', async () => {
    const recorded = gateway.nextRecord();
    const { text, failure } = await streamUntilFailure('breaks-mid-stream');
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    const generation = await recorded;
    expect(generation.reason).toBe('upstream_error');
    const record = await api(`/v1/recoveries/${generation.requestId}`, 'sk-alice');
    expect(JSON.parse(record.body.response.body_raw).choices[0].message.content).toBe(text);
  });

  it('keeps an upstream that stops sending for longer than its timeout, as upstream_timeout', async () => {
    const recorded = gateway.nextRecord();
    const { text, failure } = await streamUntilFailure('stalls');
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure.message).toContain('did not answer in time');
    const generation = await recorded;
    expect(generation.reason).toBe('upstream_timeout');
    const record = await api(`/v1/recoveries/${generation.requestId}`, 'sk-alice');
    expect(record.body.interrupted_reason).toBe('upstream_timeout');
    expect(JSON.parse(record.body.response.body_raw).choices[0].message.content).toBe(text);
  });

  it("keeps each user's records to that user", async () => {
    const { requestId } = await streamAndAbandon('sk-alice', { model: 'mock-slow', stream: true, messages: [{ role: 'user', content: 'private' }] });
    const bob = 'sk-bob';
    expect((await api('/v1/recoveries', bob)).body).toEqual({ count: 0, items: [] });
    const missing = await api(`/v1/recoveries/${requestId}`, bob);
    const absent = await api('/v1/recoveries/no-such-id', bob);
    expect(missing.status).toBe(404);
    const withoutId = (body: Record<string, unknown>, id: string) => JSON.parse(JSON.stringify(body).replaceAll(id, '<id>'));
    expect(withoutId(missing.body, requestId)).toEqual(withoutId(absent.body, 'no-such-id'));
    const lookup = await api('/v1/recoveries/lookup', bob, { method: 'POST', body: JSON.stringify({ model: 'mock-slow', stream: true, messages: [{ role: 'user', content: 'private' }] }) });
    expect(lookup.body.items).toEqual([]);
    expect((await api(`/v1/recoveries/${requestId}`, bob, { method: 'DELETE' })).body).toMatchObject({ deleted: false, reason: 'RECOVERY_NOT_FOUND' });
    expect((await api(`/v1/recoveries/${requestId}`, 'sk-alice')).status).toBe(200);
  });

  it('deletes one, then all (confirmation and dry run first)', async () => {
    const list = await api('/v1/recoveries', 'sk-alice');
    expect(list.body.count).toBe(list.body.items.length);
    expect(list.body.count).toBeGreaterThanOrEqual(4);
    const first = list.body.items[0].request_id;
    expect((await api(`/v1/recoveries/${first}`, 'sk-alice', { method: 'DELETE' })).body).toMatchObject({ request_id: first, deleted: true, reason: 'OK' });
    expect((await api(`/v1/recoveries/${first}`, 'sk-alice', { method: 'DELETE' })).status).toBe(404);

    const unconfirmed = await api('/v1/recoveries', 'sk-alice', { method: 'DELETE' });
    expect(unconfirmed).toMatchObject({ status: 400, body: { deleted: 0, reason: 'CONFIRMATION_REQUIRED' } });
    const dryRun = await api('/v1/recoveries?all=true&dry_run=true', 'sk-alice', { method: 'DELETE' });
    expect(dryRun.body).toMatchObject({ deleted: 0, would_delete: list.body.count - 1, reason: 'DRY_RUN' });
    const all = await api('/v1/recoveries?all=true', 'sk-alice', { method: 'DELETE' });
    expect(all.body).toMatchObject({ deleted: list.body.count - 1, reason: 'OK' });
    expect((await api('/v1/recoveries', 'sk-alice')).body.count).toBe(0);
  });

  it('a lookup body that is not a JSON object is a 400', async () => {
    expect((await api('/v1/recoveries/lookup', 'sk-alice', { method: 'POST', body: '[1]' })).status).toBe(400);
    expect((await api('/v1/recoveries/lookup', 'sk-alice', { method: 'POST', body: 'nope' })).status).toBe(400);
  });

  it('keeps streams in flight when the server stops', async () => {
    const stopping = await startTestGateway({ providers: { mock: { type: 'mock', slowIntervalMs: 50, slowPieces: 200 } } });
    const client = new OpenAI({ apiKey: 'sk-carol', baseURL: `${stopping.url}/v1`, maxRetries: 0 });
    const { data: stream, response } = await client.chat.completions.create({ model: 'mock-slow', stream: true, messages: [{ role: 'user', content: 'long' }] }).withResponse();
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    const requestId = response.headers.get('x-request-id')!;
    const result = await stopping.server.close(100);
    expect(result).toEqual({ finished: 0, stopped: 1 });
    expect(stopping.interrupted.map((generation) => [generation.requestId, generation.reason])).toEqual([[requestId, 'server_shutdown']]);
    // The server closed its store; the record is on disk for the next one.
    const reopened = await openRecoveryStore({ directory: stopping.store.directory });
    const [summary] = await reopened.list();
    await reopened.close();
    await stopping.close();
    expect(summary).toMatchObject({ request_id: requestId, interrupted_reason: 'server_shutdown' });
  });
});
