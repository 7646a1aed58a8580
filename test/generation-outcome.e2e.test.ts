import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationObserver, GenerationOutcome } from '../src/gateway/generation-outcome.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createUpstreamProviders, replyFromFixtures, UPSTREAM_PROVIDER_ID } from './helpers/fake-protocol-upstream.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

/**
 * What an observer of the request path is told: the outcome of each generation (plan used, status,
 * timings, usage, warnings, what was sent upstream, the response), after a `started` for each one
 * that got under way. A failing observer never reaches the client.
 */
const seen: Array<{ moment: 'started' | 'finished'; outcome: GenerationOutcome; response: string }> = [];
const recorder: GenerationObserver = {
  started: (outcome) => void seen.push({ moment: 'started', outcome, response: outcome.responseBodyText() }),
  finished: (outcome) => void seen.push({ moment: 'finished', outcome, response: outcome.responseBodyText() }),
};
const failing: GenerationObserver = {
  started: () => {
    throw new Error('observer broke at the start');
  },
  finished: async () => {
    throw new Error('observer broke at the end');
  },
};

let upstream: FakeUpstream;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startFakeUpstream(replyFromFixtures);
  gateway = await startTestGateway({ providers: createUpstreamProviders(upstream.url) }, { observers: [failing, recorder] });
});
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

function finishedFor(requestId: string) {
  return seen.find((entry) => entry.moment === 'finished' && entry.outcome.requestId === requestId)!;
}

describe('the outcome observers are told', () => {
  it('a translated stream: the attempt, what went upstream after translation, timings and usage', async () => {
    const client = new Anthropic({ apiKey: 'sk-alice', baseURL: gateway.url, maxRetries: 0, defaultHeaders: { 'user-agent': 'outcome-test/1' } });
    const { response } = await client.messages
      .stream({ model: `${UPSTREAM_PROVIDER_ID['openai-chat']}/text`, max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    const requestId = response.headers.get('request-id')!;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = seen.find((entry) => entry.moment === 'started' && entry.outcome.requestId === requestId);
    expect(started).toBeDefined();
    const { outcome, response: text } = finishedFor(requestId);
    expect(outcome).toMatchObject({
      protocol: 'anthropic-messages',
      endpoint: '/v1/messages',
      userAgent: 'outcome-test/1',
      stream: true,
      status: 200,
      upstream: { provider: 'up-chat', model: 'text', mode: 'translate' },
      attempts: [{ provider: 'up-chat', model: 'text', mode: 'translate', ms: expect.any(Number) }],
      interrupted: undefined,
    });
    expect(outcome.ttfbMs).toBeGreaterThanOrEqual(0);
    expect(outcome.ttfbMs!).toBeLessThanOrEqual(outcome.durationMs);
    // The upstream got a Chat Completions body, and the record of the answer is an Anthropic message.
    expect(JSON.parse(outcome.upstreamRequestBodyText()!)).toMatchObject({ model: 'text', stream: true, messages: [{ role: 'user' }] });
    expect(JSON.parse(outcome.requestBodyText())).toMatchObject({ max_tokens: 100 });
    expect(JSON.parse(text)).toMatchObject({ type: 'message', role: 'assistant' });
    expect(outcome.usage().output.total).toBeGreaterThan(0);
  });

  it('a request no attempt can serve: its status and error, no upstream', async () => {
    const client = new OpenAI({ apiKey: 'sk-alice', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const failure = await client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'Hi' }] }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 404 });
    const outcome = seen.filter((entry) => entry.moment === 'finished').at(-1)!.outcome;
    expect(outcome).toMatchObject({ status: 404, upstream: undefined, attempts: [], error: { code: 'not_found' } });
    expect(outcome.upstreamRequestBodyText()).toBeUndefined();
  });

  it('a mock JSON answer: no upstream body, the response as the client got it', async () => {
    const client = new OpenAI({ apiKey: 'sk-alice', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const { data, response } = await client.chat.completions.create({ model: 'mock-echo', messages: [{ role: 'user', content: 'echo me' }] }).withResponse();
    expect(data.choices[0].message.content).toBe('echo me');
    const { outcome, response: text } = finishedFor(response.headers.get('x-request-id')!);
    expect(outcome).toMatchObject({ stream: false, status: 200, upstream: { provider: 'mock', model: 'mock-echo', mode: 'mock' } });
    expect(outcome.upstreamRequestBodyText()).toBeUndefined();
    expect(JSON.parse(text).choices[0].message.content).toBe('echo me');
    expect(gateway.logs.some((line) => line.includes('observer broke at the end'))).toBe(true);
  });
});
