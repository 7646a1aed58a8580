import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOREM } from '../src/providers/mock/mock-models.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

/**
 * Each client SDK streams from a slow model, walks away mid-stream, and finds its generation again
 * by the body it sent, re-serialised with another key order and whitespace. The stored response is
 * in the client's own protocol: complete with the default drain policy, partial with cancel.
 */
const PIECES = 24;
const FULL_TEXT = Array.from({ length: PIECES }, (_, index) => (index === 0 ? '' : ' ') + LOREM.split(' ')[index]).join('');

let gateway: TestGateway;
const sentBodies: string[] = [];
const originalFetch = globalThis.fetch;

beforeAll(async () => {
  gateway = await startTestGateway({ providers: { mock: { type: 'mock', slowIntervalMs: 10, slowPieces: PIECES } } });
  // Keep the exact bytes each SDK sends (the @google/genai SDK takes no custom fetch).
  globalThis.fetch = async (input, init) => {
    if (typeof init?.body === 'string' && String(input instanceof Request ? input.url : input).startsWith(gateway.url)) sentBodies.push(init.body);
    return originalFetch(input, init);
  };
});
afterAll(async () => {
  globalThis.fetch = originalFetch;
  await gateway.close();
});

/** The same JSON with keys in reverse order and other whitespace. */
function reserialize(text: string): string {
  const reverse = (value: unknown): unknown =>
    Array.isArray(value) ? value.map(reverse) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).reverse().map(([key, inner]) => [key, reverse(inner)])) : value;
  return JSON.stringify(reverse(JSON.parse(text)), null, 3);
}

interface Scenario {
  name: string;
  /** Starts a stream, reads a little, aborts; resolves when aborted. */
  streamAndAbort(headers: Record<string, string>): Promise<void>;
  /** The text of a stored non-stream response in this protocol. */
  textOf(response: any): string;
}

const scenarios: Scenario[] = [
  {
    name: 'openai-chat',
    async streamAndAbort(headers) {
      const client = new OpenAI({ apiKey: 'sk-r', baseURL: `${gateway.url}/v1`, maxRetries: 0, defaultHeaders: headers });
      const stream = await client.chat.completions.create({ model: 'mock-slow', stream: true, messages: [{ role: 'user', content: 'chat story' }] });
      for await (const chunk of stream) if (chunk.choices[0]?.delta?.content) break;
    },
    textOf: (response) => response.choices[0].message.content,
  },
  {
    name: 'anthropic-messages',
    async streamAndAbort(headers) {
      const client = new Anthropic({ apiKey: 'sk-r', baseURL: gateway.url, maxRetries: 0, defaultHeaders: headers });
      const stream = client.messages.stream({ model: 'mock-slow', max_tokens: 1000, messages: [{ role: 'user', content: 'anthropic story' }] });
      stream.done().catch(() => undefined);
      await new Promise<void>((resolve) => stream.on('text', () => resolve()));
      stream.abort();
    },
    textOf: (response) => response.content.map((block: any) => block.text).join(''),
  },
  {
    name: 'openai-responses',
    async streamAndAbort(headers) {
      const client = new OpenAI({ apiKey: 'sk-r', baseURL: `${gateway.url}/v1`, maxRetries: 0, defaultHeaders: headers });
      const stream = client.responses.stream({ model: 'mock-slow', input: 'responses story' });
      stream.finalResponse().catch(() => undefined);
      await new Promise<void>((resolve) => stream.on('response.output_text.delta', () => resolve()));
      stream.abort();
    },
    textOf: (response) => response.output.filter((item: any) => item.type === 'message').flatMap((item: any) => item.content.map((part: any) => part.text)).join(''),
  },
  {
    name: 'gemini',
    async streamAndAbort(headers) {
      const client = new GoogleGenAI({ apiKey: 'sk-r', httpOptions: { baseUrl: gateway.url, headers } });
      const controller = new AbortController();
      const stream = await client.models.generateContentStream({ model: 'mock-slow', contents: 'gemini story', config: { abortSignal: controller.signal } });
      for await (const chunk of stream) if (chunk.text) break;
      controller.abort();
    },
    textOf: (response) => response.candidates[0].content.parts.map((part: any) => part.text).join(''),
  },
];

async function api(path: string, init: RequestInit = {}) {
  const response = await originalFetch(`${gateway.url}${path}`, { ...init, headers: { authorization: 'Bearer sk-r', 'content-type': 'application/json' } });
  return { status: response.status, body: (await response.json()) as any };
}

describe.each(scenarios)('$name client', (scenario) => {
  it.each([
    ['drain', 'complete'],
    ['cancel', 'partial'],
  ])('with %s, the record holds the %s response, found by the original body', async (policy) => {
    const recorded = gateway.nextRecord();
    const before = sentBodies.length;
    await scenario.streamAndAbort({ 'x-switchyard-on-disconnect': policy });
    const generation = await recorded;
    expect(generation).toMatchObject({ reason: 'client_disconnected', protocol: scenario.name });
    const sent = sentBodies[before];

    const lookup = await api('/v1/recoveries/lookup', { method: 'POST', body: reserialize(sent) });
    expect(lookup.body.items.map((item: any) => item.request_id)).toContain(generation.requestId);

    const record = await api(`/v1/recoveries/${generation.requestId}`);
    expect(record.body.request.body_raw).toBe(sent);
    const text = scenario.textOf(JSON.parse(record.body.response.body_raw));
    if (policy === 'drain') expect(text).toBe(FULL_TEXT);
    else {
      expect(text.length).toBeGreaterThan(0);
      expect(text.length).toBeLessThan(FULL_TEXT.length);
      expect(FULL_TEXT.startsWith(text)).toBe(true);
    }

    expect((await api(`/v1/recoveries/${generation.requestId}`, { method: 'DELETE' })).body).toMatchObject({ deleted: true, reason: 'OK' });
    expect((await api(`/v1/recoveries/${generation.requestId}`)).status).toBe(404);
  });
});
