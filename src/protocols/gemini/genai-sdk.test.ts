import { ApiError, GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError, invalidRequest } from '../../core/gateway-error.js';
import type { GenerateResponse } from '../../core/generate-response.js';
import type { StreamPart } from '../../core/stream-part.js';
import type { ResponseContext } from '../protocol-codec.js';
import { encodeGeminiError } from './encode-error.js';
import { encodeGeminiResponse } from './encode-response.js';
import { createGeminiStreamEncoder } from './encode-stream.js';

/**
 * The encoders' output read by the real @google/genai client: a tiny HTTP server on 127.0.0.1
 * answers every request with what the test prepared.
 */
interface Reply {
  status?: number;
  contentType: string;
  /** Written one after the other with a pause, so each is its own network read: @google/genai only
   * recognises a bare JSON error that a read holds alone (docs/protocols.md §4.5). */
  chunks: string[];
}

let server: Server | undefined;
const requests: string[] = [];

async function startServer(reply: Reply): Promise<string> {
  server = createServer(async (request, response) => {
    for await (const _chunk of request);
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(reply.status ?? 200, { 'content-type': reply.contentType });
    for (const chunk of reply.chunks) {
      response.write(chunk);
      await sleep(50);
    }
    response.end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  // The SDK stops reading at an error and leaves its keep-alive connection open.
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  requests.length = 0;
});

const context: ResponseContext = {
  requestId: 'req_42',
  created: 1,
  model: 'gemini-test',
  request: { model: 'gemini-test', system: [], tools: [], stream: true, reasoning: { includeThoughts: true }, extensions: {} },
};
const client = (baseUrl: string) => new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl } });
/** The encoder's text, split after each blank line into records (a bare JSON error is one too). */
const encodeStream = (parts: StreamPart[]) => {
  const encoder = createGeminiStreamEncoder(context);
  return (parts.map((part) => encoder.encode(part)).join('') + encoder.finish()).split(/(?<=\n\n)/);
};
const usage = { input: { total: 10 }, output: { total: 7, reasoning: 2 } };

describe('@google/genai reads what the Gemini encoders write', () => {
  it('generateContentStream: text, thoughts, a function call with id, finishReason and usage', async () => {
    const baseUrl = await startServer({
      contentType: 'text/event-stream',
      chunks: encodeStream([
        { type: 'start' },
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'Thinking.' },
        { type: 'reasoning-end', id: 'r' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Hello' },
        { type: 'text-delta', id: 't', delta: ' world' },
        { type: 'text-end', id: 't' },
        { type: 'tool-input-start', id: 'call_1', toolName: 'get_weather' },
        { type: 'tool-input-delta', id: 'call_1', delta: '{"city":"Paris"}' },
        { type: 'tool-input-end', id: 'call_1' },
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: '{"city":"Paris"}', protocolMetadata: { gemini: { thoughtSignature: 'c2ln' } } },
        { type: 'finish', finishReason: { unified: 'tool-calls' }, usage },
      ]),
    });
    const chunks: GenerateContentResponse[] = [];
    for await (const chunk of await client(baseUrl).models.generateContentStream({ model: 'gemini-test', contents: 'Weather?' })) chunks.push(chunk);

    expect(requests).toEqual(['POST /v1beta/models/gemini-test:streamGenerateContent?alt=sse']);
    const parts = chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
    expect(parts.filter((part) => part.thought).map((part) => part.text)).toEqual(['Thinking.']);
    expect(parts.filter((part) => !part.thought && part.text !== undefined).map((part) => part.text).join('')).toBe('Hello world');
    expect(chunks.flatMap((chunk) => chunk.functionCalls ?? [])).toEqual([{ id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }]);
    expect(parts.find((part) => part.functionCall)?.thoughtSignature).toBe('c2ln');
    const last = chunks.at(-1)!;
    expect(last.candidates?.[0]?.finishReason).toBe('STOP');
    expect(last.usageMetadata).toEqual({ promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 17, thoughtsTokenCount: 2 });
    expect(chunks.every((chunk) => chunk.modelVersion === 'gemini-test' && chunk.responseId === 'req_42')).toBe(true);
    expect(chunks.every((chunk) => chunk.candidates?.[0]?.content?.role === 'model')).toBe(true);
  });

  it('generateContentStream: an error written mid-stream is thrown as ApiError', async () => {
    const baseUrl = await startServer({
      contentType: 'text/event-stream',
      chunks: encodeStream([
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Partial' },
        { type: 'error', error: new GatewayError('overloaded', 'The upstream is overloaded.') },
      ]),
    });
    const texts: string[] = [];
    let thrown: unknown;
    try {
      for await (const chunk of await client(baseUrl).models.generateContentStream({ model: 'gemini-test', contents: 'Hi' })) texts.push(chunk.text ?? '');
    } catch (error) {
      thrown = error;
    }
    expect(texts).toEqual(['Partial']);
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).status).toBe(503);
    expect((thrown as ApiError).message).toContain('The upstream is overloaded.');
  });

  it('generateContent: the encodeResponse JSON, with the call id to echo', async () => {
    const response: GenerateResponse = {
      choices: [
        {
          index: 0,
          content: [
            { type: 'text', text: 'Let me check.' },
            { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'get_weather', input: '{"city":"Oslo"}' },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        },
      ],
      usage: { input: { total: 12, cacheRead: 4 }, output: { total: 3 } },
    };
    const baseUrl = await startServer({ contentType: 'application/json', chunks: [JSON.stringify(encodeGeminiResponse(response, context))] });
    const result = await client(baseUrl).models.generateContent({ model: 'gemini-test', contents: 'Weather in Oslo?' });
    expect(requests).toEqual(['POST /v1beta/models/gemini-test:generateContent']);
    expect(result.candidates?.[0]?.content?.parts?.[0]?.text).toBe('Let me check.');
    expect(result.functionCalls).toEqual([{ id: 'toolu_1', name: 'get_weather', args: { city: 'Oslo' } }]);
    expect(result.candidates?.[0]?.finishReason).toBe('STOP');
    expect(result.usageMetadata).toEqual({ promptTokenCount: 12, candidatesTokenCount: 3, totalTokenCount: 15, cachedContentTokenCount: 4 });
    expect([result.modelVersion, result.responseId]).toEqual(['gemini-test', 'req_42']);
  });

  it('generateContent: an encodeError body is thrown as ApiError with its status', async () => {
    const encoded = encodeGeminiError(invalidRequest('generationConfig.temperature', 'Invalid temperature.'));
    const baseUrl = await startServer({ status: encoded.status, contentType: 'application/json', chunks: [JSON.stringify(encoded.body)] });
    const failure = client(baseUrl).models.generateContent({ model: 'gemini-test', contents: 'Hi' });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 400, message: expect.stringContaining('INVALID_ARGUMENT') });
  });
});
