import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/parse-config.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

/**
 * What happens to the upstream when the client goes away is a provider's choice: a paid API is
 * drained into the record (its tokens cost money), a local GPU server is cancelled (nobody reads
 * the answer, and the next request waits for the GPU).
 */
const WORDS = 40;
const chunk = (text: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { content: text }, finish_reason: finish }] })}\n\n`;
const STREAM = Array.from({ length: WORDS }, (_, index) => chunk(`w${index} `)).join('') + chunk('', 'stop') + 'data: [DONE]\n\n';
const FULL_TEXT = Array.from({ length: WORDS }, (_, index) => `w${index} `).join('');

let upstream: FakeUpstream;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startFakeUpstream(() => ({ sse: STREAM, delayMs: 15 }));
  const at = { baseURL: `${upstream.url}/v1`, models: ['slow'], discoverModels: false };
  gateway = await startTestGateway({
    providers: {
      local: { preset: 'ollama', ...at },
      paid: { preset: 'openai', apiKey: 'sk-test-paid-0000', ...at },
      pinned: { preset: 'ollama', onDisconnect: 'drain', ...at },
    },
  });
});
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

let asked = 0;

/** Streams `model`, reads two chunks, walks away; the record the gateway keeps. */
async function abandon(model: string, headers: Record<string, string> = {}) {
  const client = new OpenAI({ apiKey: 'sk-user', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const recorded = gateway.nextRecord();
  // A body of its own each time: an identical retry would be answered from the last record.
  const stream = await client.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: `request ${(asked += 1)}` }] }, { headers });
  const iterator = stream[Symbol.asyncIterator]();
  await iterator.next();
  await iterator.next();
  stream.controller.abort();
  const generation = await recorded;
  return JSON.parse(generation.responseBodyText).choices[0].message.content as string;
}

describe('the disconnect policy, per provider', () => {
  it('local presets cancel, paid presets drain, and a provider or a request may say otherwise', () => {
    const config = parseConfig({ providers: { a: { preset: 'ollama' }, b: { preset: 'lmstudio' }, c: { preset: 'vllm' }, d: { preset: 'openai', apiKey: 'k' }, e: { preset: 'ollama', onDisconnect: 'drain' } } }, {});
    expect(Object.fromEntries(config.providers.map((provider) => [provider.id, provider.onDisconnect]))).toMatchObject({ a: 'cancel', b: 'cancel', c: 'cancel', d: undefined, e: 'drain' });
    expect(() => parseConfig({ providers: { a: { preset: 'ollama', onDisconnect: 'later' } } }, {})).toThrow(/providers\.a\.onDisconnect/);
  });

  it('a local server is cancelled: the record keeps what came before the client left', async () => {
    const text = await abandon('local/slow');
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(FULL_TEXT.length);
  });

  it('a paid API is drained: the record keeps the whole answer', async () => {
    expect(await abandon('paid/slow')).toBe(FULL_TEXT);
  });

  it('a provider setting wins over its preset, and the request header over both', async () => {
    expect(await abandon('pinned/slow')).toBe(FULL_TEXT);
    const cancelled = await abandon('paid/slow', { 'x-switchyard-on-disconnect': 'cancel' });
    expect(cancelled.length).toBeLessThan(FULL_TEXT.length);
  });
});
