import { connect } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

let gateway: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  gateway = await startTestGateway({ providers: { mock: { type: 'mock', slowIntervalMs: 5, slowPieces: 20 } } });
  client = new OpenAI({ apiKey: 'sk-local', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
});
afterAll(() => gateway.close());

describe('OpenAI Chat Completions against the mock models', () => {
  it('mock-echo answers with the last user message, with usage from a real tokenizer', async () => {
    const completion = await client.chat.completions.create({
      model: 'mock-echo',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: 'Echo this back, please.' },
      ],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('mock-echo');
    expect(completion.choices).toHaveLength(1);
    expect(completion.choices[0].message).toMatchObject({ role: 'assistant', content: 'Echo this back, please.' });
    expect(completion.choices[0].finish_reason).toBe('stop');
    // o200k_base: "Echo this back, please." is 6 tokens.
    expect(completion.usage?.completion_tokens).toBe(6);
    expect(completion.usage!.prompt_tokens).toBeGreaterThan(10);
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + 6);
  });

  it('streams chunk by chunk, and the strict stream helper accepts the stream', async () => {
    const stream = client.chat.completions.stream({
      model: 'mock-echo',
      messages: [{ role: 'user', content: 'one two three four' }],
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    stream.on('content.delta', ({ delta }) => deltas.push(delta));
    const final = await stream.finalChatCompletion();
    expect(deltas).toEqual(['one', ' two', ' three', ' four']);
    expect(final.choices[0].message.content).toBe('one two three four');
    expect(final.choices[0].finish_reason).toBe('stop');
    expect(final.usage?.completion_tokens).toBe(4);
  });

  it('sends usage in a stream only when asked', async () => {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-local', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock-echo', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await response.text();
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(text).not.toContain('"usage"');
    expect(text).not.toContain('event:');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('returns n choices', async () => {
    const completion = await client.chat.completions.create({ model: 'mock-echo', n: 3, messages: [{ role: 'user', content: 'same' }] });
    expect(completion.choices.map((choice) => [choice.index, choice.message.content])).toEqual([
      [0, 'same'],
      [1, 'same'],
      [2, 'same'],
    ]);
    const stream = client.chat.completions.stream({ model: 'mock-echo', n: 2, messages: [{ role: 'user', content: 'twice' }] });
    const final = await stream.finalChatCompletion();
    expect(final.choices.map((choice) => choice.message.content)).toEqual(['twice', 'twice']);
  });

  it('mock-tools calls the offered tool with schema-valid arguments, then answers with the result', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] }, days: { type: 'integer', minimum: 1 } },
            required: ['city', 'unit'],
          },
        },
      },
    ];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const stream = client.chat.completions.stream({ model: 'mock-tools', messages, tools });
    const first = await stream.finalChatCompletion();
    const call = first.choices[0].message.tool_calls![0];
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    expect(call.type).toBe('function');
    if (call.type !== 'function') throw new Error('expected a function call');
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'example', unit: 'celsius', days: 1 });

    const second = await client.chat.completions.create({
      model: 'mock-tools',
      tools,
      messages: [...messages, first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '21 degrees and sunny' }],
    });
    expect(second.choices[0].finish_reason).toBe('stop');
    expect(second.choices[0].message.content).toBe('The tool returned get_weather: 21 degrees and sunny');
  });

  it('accepts response_format and provider/model names', async () => {
    const completion = await client.chat.completions.create({
      model: 'mock/mock-echo',
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: '{"ok":true}' }],
    });
    expect(JSON.parse(completion.choices[0].message.content!)).toEqual({ ok: true });
    expect(completion.model).toBe('mock/mock-echo');
  });

  it('mock-fail fails with the configured status, or the one the message names', async () => {
    await expect(client.chat.completions.create({ model: 'mock-fail', messages: [{ role: 'user', content: 'go' }] })).rejects.toMatchObject({
      status: 503,
      error: { type: 'server_error' },
    });
    const error = await client.chat.completions.create({ model: 'mock-fail', messages: [{ role: 'user', content: '429' }] }).catch((caught) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error.message).toContain('mock-fail failed as asked (rate_limit)');
  });

  it('stops at max_completion_tokens with finish_reason length', async () => {
    const completion = await client.chat.completions.create({ model: 'mock-lorem', max_completion_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    expect(completion.choices[0].finish_reason).toBe('length');
    expect(completion.usage?.completion_tokens).toBeLessThanOrEqual(5);
    expect(completion.choices[0].message.content!.length).toBeGreaterThan(0);
  });

  it('says what it could not forward in x-switchyard-warnings', async () => {
    const { response } = await client.chat.completions
      .create({ model: 'mock-echo', messages: [{ role: 'user', content: 'hi', name: 'alice' }] })
      .withResponse();
    expect(response.headers.get('x-switchyard-warnings')).toBe('dropped messages[0].name: participant names are not forwarded');
    expect(response.headers.get('x-switchyard-upstream')).toBe('mock/mock-echo');
  });

  it('lists the models without auth', async () => {
    const response = await fetch(`${gateway.url}/v1/models`);
    const body = (await response.json()) as any;
    expect(body.object).toBe('list');
    expect(body.data.map((model: { id: string }) => model.id)).toEqual(['mock-echo', 'mock-lorem', 'mock-slow', 'mock-tools', 'mock-cut', 'mock-fail']);
    expect(body.data[0]).toEqual({ id: 'mock-echo', object: 'model', created: expect.any(Number), owned_by: 'mock' });
    const listed = [];
    for await (const model of client.models.list()) listed.push(model.id);
    expect(listed).toContain('mock-slow');
  });

  it('carries x-request-id on every response, errors included', async () => {
    const ok = await client.chat.completions.create({ model: 'mock-echo', messages: [{ role: 'user', content: 'x' }] }).withResponse();
    expect(ok.response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const notFound = await fetch(`${gateway.url}/v1/nothing-here`);
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await notFound.json()) as any).error.message).toContain('/v1/nothing-here');
  });
});

describe('the head of a stream response, on the wire', () => {
  /** The raw head of a stream response to one request sent with `connectionHeader`. */
  async function streamHead(connectionHeader: string): Promise<string> {
    const { port } = new URL(gateway.url);
    const body = JSON.stringify({ model: 'mock-echo', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer sk-local\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: ${connectionHeader}\r\n\r\n${body}`,
    );
    for (let waited = 0; !received.endsWith('0\r\n\r\n') && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    socket.destroy();
    return received.slice(0, received.indexOf('\r\n\r\n')).toLowerCase();
  }

  it("says what Node does with the connection: kept, with its idle timeout, or closed when the client asked", async () => {
    const kept = await streamHead('keep-alive');
    expect(kept).toMatch(/\r\nconnection: keep-alive\r\n/);
    expect(kept).toMatch(/\r\nkeep-alive: timeout=\d+\r\n/);
    expect(kept).toMatch(/\r\ntransfer-encoding: chunked(\r\n|$)/);
    const closed = await streamHead('close');
    expect(closed).toMatch(/\r\nconnection: close(\r\n|$)/);
    expect(closed).not.toContain('keep-alive');
  });
});
