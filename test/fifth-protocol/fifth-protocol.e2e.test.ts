import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { BUILT_IN_PROTOCOLS } from '../../src/protocols/registry.js';
import { openRecoveryStore, type RecoveryStore } from '../../src/recoveries/recovery-store.js';
import { createLogger } from '../../src/server/create-logger.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { TINY_PATH } from './tiny-codec.js';
import { tinyProtocol } from './tiny-descriptor.js';

/**
 * A fifth protocol, made up for this test, added the way a real one is: its folder and a line in
 * the list of protocols. Its clients reach the mock models and an upstream of a real protocol;
 * a real protocol's client reaches an upstream of it.
 */
const PROTOCOLS = [...BUILT_IN_PROTOCOLS, tinyProtocol];

let tinyUpstream: FakeUpstream;
let chatUpstream: FakeUpstream;
let server: RunningServer;
let store: RecoveryStore;
let home: string;

beforeAll(async () => {
  tinyUpstream = await startFakeUpstream((request) => {
    const body = JSON.parse(request.body) as { prompt: string; stream: boolean };
    if (!body.stream) return { json: JSON.stringify({ id: 'u1', model: 'tiny-model', text: `tiny heard: ${body.prompt}`, finish: 'stop', tokens: { in: 4, out: 3 } }) };
    return { sse: ['tiny ', 'heard: ', body.prompt].map((text) => `data: ${JSON.stringify({ text })}\n\n`).join('') + 'data: {"finish":"stop","tokens":{"in":4,"out":3}}\n\n' };
  });
  chatUpstream = await startFakeUpstream((request) => {
    const body = JSON.parse(request.body) as { messages: Array<{ content: string }>; stream?: boolean };
    const text = `chat heard: ${body.messages.at(-1)!.content}`;
    if (!body.stream) {
      return {
        json: JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          created: 1,
          model: 'chat-model',
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
        }),
      };
    }
    const chunk = (delta: object, finish: string | null) => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'chat-model', choices: [{ index: 0, delta, finish_reason: finish }] });
    const records = [
      chunk({ role: 'assistant', content: text }, null),
      chunk({}, 'stop'),
      { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'chat-model', choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } },
    ];
    return { sse: records.map((record) => `data: ${JSON.stringify(record)}\n\n`).join('') + 'data: [DONE]\n\n' };
  });
  const config = parseConfig(
    {
      providers: {
        tinyup: { type: 'tiny', baseURL: tinyUpstream.url, apiKey: 'tiny-secret', models: ['tiny-model'], discoverModels: false },
        chatup: { type: 'openai-chat', baseURL: `${chatUpstream.url}/v1`, apiKey: 'chat-secret', models: ['chat-model'], discoverModels: false },
      },
      defaultModels: { tiny: 'mock/mock-echo' },
    },
    {},
    undefined,
    PROTOCOLS,
  );
  home = mkdtempSync(join(tmpdir(), 'switchyard-fifth-'));
  store = await openRecoveryStore({ directory: join(home, 'recoveries') });
  server = await startServer({ config, logger: createLogger({ write: () => {} }), recoveryStore: store, host: '127.0.0.1', port: 0, protocols: PROTOCOLS });
});

afterAll(async () => {
  await server?.close(1000);
  await tinyUpstream?.close();
  await chatUpstream?.close();
  await rm(home, { recursive: true, force: true });
});

const tiny = (path: string, body: unknown, headers: Record<string, string> = { 'x-tiny-key': 'k' }) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: Object.assign({ 'content-type': 'application/json' }, headers), body: JSON.stringify(body) });

/** The text of a Tiny stream, and its last record. */
async function readTinyStream(response: Response): Promise<{ text: string; last: Record<string, unknown> }> {
  const records = (await response.text())
    .split('\n\n')
    .filter((record) => record.startsWith('data: '))
    .map((record) => JSON.parse(record.slice('data: '.length)) as Record<string, unknown>);
  return { text: records.map((record) => record.text ?? '').join(''), last: records.at(-1)! };
}

describe('a client of the fifth protocol', () => {
  it('reaches the mock models, whole and streamed', async () => {
    const whole = await tiny(TINY_PATH, { model: 'mock-echo', prompt: 'hello tiny' });
    expect(whole.status).toBe(200);
    expect(await whole.json()).toMatchObject({ model: 'mock-echo', text: 'hello tiny', finish: 'stop' });

    const streamed = await tiny(TINY_PATH, { model: 'mock-echo', prompt: 'hello stream', stream: true });
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    const { text, last } = await readTinyStream(streamed);
    expect(text).toBe('hello stream');
    expect(last).toMatchObject({ finish: 'stop' });
  });

  it('gets its own default model for a name no provider has', async () => {
    const response = await tiny(TINY_PATH, { model: 'no-such-model', prompt: 'defaulted' });
    expect(await response.json()).toMatchObject({ text: 'defaulted' });
  });

  it('reaches an OpenAI Chat upstream, whole and streamed', async () => {
    const whole = await tiny(TINY_PATH, { model: 'chat-model', prompt: 'to chat' });
    expect(await whole.json()).toMatchObject({ model: 'chat-model', text: 'chat heard: to chat', finish: 'stop', tokens: { in: 5, out: 2 } });
    const sent = chatUpstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer chat-secret');

    const { text, last } = await readTinyStream(await tiny(TINY_PATH, { model: 'chat-model', prompt: 'to chat, streamed', stream: true }));
    expect(text).toBe('chat heard: to chat, streamed');
    expect(last).toEqual({ finish: 'stop', tokens: { in: 5, out: 2 } });
  });

  it('passes through to an upstream of its own protocol', async () => {
    const response = await tiny(TINY_PATH, { model: 'tiny-model', prompt: 'same protocol' });
    expect(await response.json()).toEqual({ id: 'u1', model: 'tiny-model', text: 'tiny heard: same protocol', finish: 'stop', tokens: { in: 4, out: 3 } });
    expect(JSON.parse(tinyUpstream.requests.at(-1)!.body)).toEqual({ model: 'tiny-model', prompt: 'same protocol' });
  });

  it('gets errors in its own envelope: a missing key, a bad body, an unknown path', async () => {
    const unauthenticated = await tiny(TINY_PATH, { model: 'mock-echo', prompt: 'x' }, {});
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toEqual({ failure: { code: 'authentication', message: expect.stringContaining('x-tiny-key') } });

    const invalid = await tiny(TINY_PATH, { model: 'mock-echo' });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ failure: { code: 'invalid_request', message: "Invalid 'prompt': expected a string." } });

    const unknown = await tiny('/tiny/nowhere', {});
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ failure: { code: 'not_found' } });
  });

  it('lists models and counts tokens in its own shapes', async () => {
    const list = (await (await fetch(`${server.url}/tiny/models`)).json()) as { names: string[] };
    expect(list.names).toEqual(expect.arrayContaining(['tiny-model', 'chat-model', 'mock-echo']));
    expect(await (await fetch(`${server.url}/tiny/models/tiny-model`)).json()).toEqual({ name: 'tiny-model', provider: 'tinyup' });
    const counted = (await (await tiny('/tiny/count', { model: 'mock-echo', prompt: 'hello world' })).json()) as { count: number };
    expect(counted.count).toBeGreaterThan(0);
  });
});

describe('a client of a real protocol', () => {
  it('reaches an upstream of the fifth protocol through the OpenAI SDK, whole and streamed', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'tiny-model', messages: [{ role: 'user', content: 'from openai' }] });
    expect(completion.choices[0].message.content).toBe('tiny heard: from openai');
    expect(completion.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 3 });
    const sent = tinyUpstream.requests.at(-1)!;
    expect(sent.path).toBe(TINY_PATH);
    expect(sent.headers['x-tiny-key']).toBe('tiny-secret');
    expect(JSON.parse(sent.body)).toEqual({ model: 'tiny-model', prompt: 'from openai', stream: false });

    const stream = await client.chat.completions.create({ model: 'tiny-model', messages: [{ role: 'user', content: 'streamed' }], stream: true });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe('tiny heard: streamed');
    expect(finish).toBe('stop');
  });

  it('still answers the built-in protocols as before', async () => {
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock-echo', max_tokens: 10, messages: [{ role: 'user', content: 'anthropic still' }] }),
    });
    expect(await response.json()).toMatchObject({ type: 'message', content: [{ type: 'text', text: 'anthropic still' }] });
  });
});
