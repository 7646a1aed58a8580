import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeReply, type FakeUpstream } from './helpers/fake-upstream.js';
import { readFixture, splitSseRecords } from './helpers/fixtures.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

/** Which fixture the fake OpenAI upstream replays, chosen by the requested model. */
const REPLIES: Record<string, () => FakeReply> = {
  'text': () => ({ json: readFixture('openai-chat', 'text.json') }),
  'own-key-text': () => ({ json: readFixture('openai-chat', 'text.json') }),
  'text-stream': () => ({ sse: readFixture('openai-chat', 'text-stream.sse') }),
  'text-usage-stream': () => ({ sse: readFixture('openai-chat', 'text-usage-stream.sse') }),
  'tool-call-stream': () => ({ sse: readFixture('openai-chat', 'tool-call-stream.sse') }),
  'parallel-tool-calls-stream': () => ({ sse: readFixture('openai-chat', 'parallel-tool-calls-stream.sse') }),
  'parallel-tool-calls': () => ({ json: readFixture('openai-chat', 'parallel-tool-calls.json') }),
  'slow-stream': () => ({ sse: readFixture('openai-chat', 'text-stream.sse'), delayMs: 40 }),
  'slow-first-token-stream': () => ({ sse: readFixture('openai-chat', 'text-stream.sse'), stallAfter: 0, stallMs: 1500 }),
  'error-400': () => ({ status: 400, json: readFixture('openai-chat', 'error-400.json') }),
  'error-404': () => ({ status: 404, json: readFixture('openai-chat', 'error-404-model.json') }),
  'error-500-text': () => ({ status: 500, json: 'upstream exploded', headers: { 'content-type': 'text/plain' } }),
  'error-401-key': () => ({ status: 401, json: '{"error":{"message":"Incorrect API key provided: sk-upstream-secret.","type":"invalid_request_error","code":"invalid_api_key"}}' }),
  'error-400-key': () => ({ status: 400, json: '{"error":{"message":"Key sk-upstream-secret cannot use this model.","type":"invalid_request_error","code":null}}' }),
};

let upstream: FakeUpstream;
let gateway: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startFakeUpstream((request) => REPLIES[JSON.parse(request.body).model]());
  gateway = await startTestGateway({
    providers: {
      fake: { type: 'openai-chat', baseURL: `${upstream.url}/v1`, apiKey: 'sk-upstream-secret', models: Object.keys(REPLIES), discoverModels: false },
      own: { type: 'openai-chat', baseURL: `${upstream.url}/v1`, forwardClientKey: true, discoverModels: false },
    },
  });
  client = new OpenAI({ apiKey: 'sk-client', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

/** What a fixture stream says, read independently of the gateway's parser. */
function fixtureStreamText(name: string): string {
  return splitSseRecords(readFixture('openai-chat', name))
    .map((record) => record.trim().slice('data: '.length))
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data).choices?.[0]?.delta?.content ?? '')
    .join('');
}

describe('OpenAI Chat passthrough to an OpenAI-compatible upstream', () => {
  it('forwards the body with the model rewritten and the upstream key, never the client key', async () => {
    await client.chat.completions.create({ model: 'fake/text', messages: [{ role: 'user', content: 'hi' }], temperature: 0.5 });
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-upstream-secret');
    expect(JSON.parse(sent.body)).toEqual({ model: 'text', messages: [{ role: 'user', content: 'hi' }], temperature: 0.5 });
  });

  it('forwards what the gateway itself does not map, without a warning', async () => {
    const { response } = await client.chat.completions
      .create({ model: 'text', messages: [{ role: 'user', content: 'hi', name: 'alice' }], logit_bias: { '50256': -100 } })
      .withResponse();
    expect(response.headers.get('x-switchyard-warnings')).toBeNull();
    expect(JSON.parse(upstream.requests.at(-1)!.body)).toMatchObject({ messages: [{ name: 'alice' }], logit_bias: { '50256': -100 } });
  });

  it("sends the client's own key to a provider with forwardClientKey", async () => {
    await client.chat.completions.create({ model: 'own/own-key-text', messages: [{ role: 'user', content: 'hi' }] });
    expect(upstream.requests.at(-1)!.headers.authorization).toBe('Bearer sk-client');
  });

  it('returns a non-stream completion as the upstream sent it', async () => {
    const completion = await client.chat.completions.create({ model: 'text', messages: [{ role: 'user', content: 'hi' }] });
    const recorded = JSON.parse(readFixture('openai-chat', 'text.json'));
    expect(completion.choices[0].message.content).toBe(recorded.choices[0].message.content);
    expect(completion.usage).toEqual(recorded.usage);
    expect(completion.id).toBe(recorded.id);
  });

  it('streams text, and holds back the usage chunk the gateway asked for but the client did not', async () => {
    const stream = await client.chat.completions.create({ model: 'text-stream', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    let usageChunks = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usageChunks += 1;
    }
    expect(text).toBe(fixtureStreamText('text-stream.sse'));
    expect(usageChunks).toBe(0);
    expect(JSON.parse(upstream.requests.at(-1)!.body).stream_options).toEqual({ include_usage: true });
  });

  it('passes usage through when the client asks for it', async () => {
    const stream = client.chat.completions.stream({ model: 'text-usage-stream', messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: true } });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0].message.content).toBe(fixtureStreamText('text-usage-stream.sse'));
    expect(final.usage).toMatchObject({ prompt_tokens: 78, completion_tokens: 9, total_tokens: 87 });
  });

  it('streams a tool call through the strict stream helper', async () => {
    const final = await client.chat.completions.stream({ model: 'tool-call-stream', messages: [{ role: 'user', content: 'hi' }] }).finalChatCompletion();
    const call = final.choices[0].message.tool_calls![0];
    expect(final.choices[0].finish_reason).toBe('tool_calls');
    if (call.type !== 'function') throw new Error('expected a function call');
    expect(JSON.parse(call.function.arguments)).toEqual({ country: 'UK' });
  });

  it('streams parallel tool calls, and returns them non-stream', async () => {
    const final = await client.chat.completions.stream({ model: 'parallel-tool-calls-stream', messages: [{ role: 'user', content: 'hi' }] }).finalChatCompletion();
    const streamed = final.choices[0].message.tool_calls!.map((call) => (call.type === 'function' ? [call.function.name, JSON.parse(call.function.arguments)] : []));
    expect(streamed).toHaveLength(2);
    const whole = await client.chat.completions.create({ model: 'parallel-tool-calls', messages: [{ role: 'user', content: 'hi' }] });
    const recorded = JSON.parse(readFixture('openai-chat', 'parallel-tool-calls.json'));
    expect(whole.choices[0].message.tool_calls).toEqual(recorded.choices[0].message.tool_calls);
  });

  it('delivers a slow upstream stream event by event, not at the end', async () => {
    const total = splitSseRecords(readFixture('openai-chat', 'text-stream.sse')).length;
    const before = upstream.recordsSent;
    const stream = await client.chat.completions.create({ model: 'slow-stream', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    // The client holds its first chunk while the upstream is still far from done.
    expect(upstream.recordsSent - before).toBeLessThan(total / 2);
    while (!(await iterator.next()).done);
    expect(upstream.recordsSent - before).toBe(total);
  });

  it('answers with its status and headers while the upstream is still silent', async () => {
    const before = upstream.recordsSent;
    // The SDK resolves once the headers are in: here, before the upstream has sent any event.
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'slow-first-token-stream', stream: true, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(response.status).toBe(200);
    expect(upstream.recordsSent - before).toBe(0);
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(fixtureStreamText('text-stream.sse'));
  });

  it('returns upstream errors with their status and body', async () => {
    const badRequest = await client.chat.completions.create({ model: 'error-400', messages: [{ role: 'user', content: 'hi' }] }).catch((error) => error);
    expect(badRequest).toBeInstanceOf(OpenAI.BadRequestError);
    expect(badRequest.status).toBe(400);
    expect(badRequest.error).toEqual(JSON.parse(readFixture('openai-chat', 'error-400.json')).error);
    const notFound = await client.chat.completions.create({ model: 'error-404', messages: [{ role: 'user', content: 'hi' }] }).catch((error) => error);
    expect(notFound).toBeInstanceOf(OpenAI.NotFoundError);
    expect(notFound.error.code).toBe('model_not_found');
    const broken = await client.chat.completions.create({ model: 'error-500-text', messages: [{ role: 'user', content: 'hi' }] }).catch((error) => error);
    expect(broken.status).toBe(500);
  });

  it("never shows the client the gateway's own upstream key", async () => {
    const refused = await client.chat.completions.create({ model: 'error-401-key', messages: [{ role: 'user', content: 'hi' }] }).catch((error) => error);
    // The client's key was fine: the gateway's credentials were not.
    expect(refused.status).toBe(502);
    expect(refused.error.message).toContain("provider 'fake' refused the gateway's credentials");
    const quoted = await client.chat.completions.create({ model: 'error-400-key', messages: [{ role: 'user', content: 'hi' }] }).catch((error) => error);
    expect(quoted.status).toBe(400);
    expect(quoted.error.message).toBe('Key [redacted] cannot use this model.');
    expect(JSON.stringify([refused.error, quoted.error, gateway.logs])).not.toContain('sk-upstream-secret');
  });

  it('answers 502 in the OpenAI envelope when the upstream cannot be reached', async () => {
    const dead = await startTestGateway({ providers: { dead: { type: 'openai-chat', baseURL: 'http://127.0.0.1:9/v1', models: ['m'], discoverModels: false } } });
    try {
      const deadClient = new OpenAI({ apiKey: 'sk', baseURL: `${dead.url}/v1`, maxRetries: 0 });
      const error = await deadClient.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).catch((caught) => caught);
      expect(error.status).toBe(502);
      expect(error.error).toMatchObject({ type: 'server_error', message: expect.stringContaining('Could not reach the upstream') });
      expect(JSON.stringify(error.error)).not.toMatch(/at .*\.ts:\d+/);
    } finally {
      await dead.close();
    }
  });
});
