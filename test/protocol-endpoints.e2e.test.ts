import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { request as httpRequest } from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

const MOCK_MODELS = ['mock-echo', 'mock-lorem', 'mock-slow', 'mock-tools', 'mock-cut', 'mock-fail'];

describe('model lists in each SDK', () => {
  it('the Anthropic SDK pages through /v1/models', async () => {
    const client = new Anthropic({ apiKey: 'k', baseURL: gateway.url, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of client.models.list({ limit: 1000 })) {
      ids.push(model.id);
      expect(model).toMatchObject({ type: 'model', display_name: model.id, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    }
    expect(ids).toEqual(MOCK_MODELS);
  });

  it('the Gemini SDK lists models with the models/ prefix', async () => {
    const client = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: gateway.url } });
    const names: string[] = [];
    for await (const model of await client.models.list()) names.push(model.name!);
    expect(names).toEqual(MOCK_MODELS.map((id) => `models/${id}`));
  });

  it('the OpenAI SDK retrieves one model', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    expect(await client.models.retrieve('mock-tools')).toMatchObject({ id: 'mock-tools', object: 'model', owned_by: 'mock' });
    await expect(client.models.retrieve('nope')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe('token counting in each protocol', () => {
  it('Anthropic count_tokens', async () => {
    const client = new Anthropic({ apiKey: 'k', baseURL: gateway.url, maxRetries: 0 });
    const counted = await client.messages.countTokens({ model: 'mock-echo', messages: [{ role: 'user', content: 'hello world' }] });
    expect(counted).toEqual({ input_tokens: 5 });
  });

  it('Gemini countTokens', async () => {
    const client = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: gateway.url } });
    const counted = await client.models.countTokens({ model: 'mock-echo', contents: 'hello world' });
    expect(counted.totalTokens).toBe(5);
  });

  it('Responses input_tokens', async () => {
    const response = await fetch(`${gateway.url}/v1/responses/input_tokens`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock-echo', input: 'hello world' }),
    });
    expect(await response.json()).toEqual({ object: 'response.input_tokens', input_tokens: 5 });
  });
});

describe('what clients and agents probe', () => {
  it('answers HEAD /api/hello', async () => {
    expect((await fetch(`${gateway.url}/api/hello`, { method: 'HEAD' })).status).toBe(200);
  });

  it('answers a WebSocket upgrade on /v1/responses with 426, so clients fall back to HTTP', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(`${gateway.url}/v1/responses`, {
        headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', authorization: 'Bearer k' },
      });
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on('upgrade', () => reject(new Error('the server accepted a WebSocket')));
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(426);
  });

  it('requires anthropic-version on /v1/messages, in the Anthropic envelope', async () => {
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock-echo', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version: header is required.' }, request_id: null });
  });

  it('refuses stored Responses state for an upstream that cannot resolve it, naming the field', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const error = await client.responses.create({ model: 'mock-echo', input: 'go on', previous_response_id: 'resp_123' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.error).toMatchObject({ param: 'previous_response_id', message: expect.stringContaining('only an OpenAI Responses upstream') });
  });

  it('takes the Gemini key from ?key= as REST clients send it', async () => {
    const response = await fetch(`${gateway.url}/v1beta/models/mock-echo:generateContent?key=k`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'by query key' }] }] }),
    });
    const body = (await response.json()) as any;
    expect(body.candidates[0].content.parts[0].text).toBe('by query key');
  });
});

describe('what a Response object echoes of its request', () => {
  const echoed = {
    model: 'mock-echo',
    instructions: 'Answer briefly.',
    input: 'echo this',
    tools: [{ type: 'function' as const, name: 'read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }, strict: false }],
  };

  it('the OpenAI SDK gets the instructions and tools back, non-stream and in the stream', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const response = await client.responses.create(echoed);
    expect(response.instructions).toBe('Answer briefly.');
    expect(response.tools).toMatchObject([{ type: 'function', name: 'read_file', description: 'Read a file.' }]);

    const events = await client.responses.create({ ...echoed, stream: true });
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of events) if (event.type === 'response.completed') completed = event.response;
    expect(completed?.instructions).toBe('Answer briefly.');
    expect(completed?.tools).toMatchObject([{ type: 'function', name: 'read_file', description: 'Read a file.' }]);
  });
});
