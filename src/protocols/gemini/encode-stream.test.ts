import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectStreamParts } from '../../core/collect-stream.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { GenerateResponse } from '../../core/generate-response.js';
import type { StreamPart } from '../../core/stream-part.js';
import { createSseParser } from '../../sse/parse-sse.js';
import type { ResponseContext } from '../protocol-codec.js';
import { createGeminiStreamDecoder } from './decode-stream.js';
import { createGeminiStreamEncoder } from './encode-stream.js';

const FIXTURES = new URL('../../../test/fixtures/gemini/', import.meta.url);
const context = (overrides: Partial<ResponseContext> = {}, includeThoughts = true): ResponseContext => ({
  requestId: 'req_1',
  created: 1,
  model: 'gemini-test',
  request: { model: 'gemini-test', system: [], tools: [], stream: true, reasoning: { includeThoughts }, extensions: {} },
  ...overrides,
});

function encode(parts: StreamPart[], responseContext = context()): string {
  const encoder = createGeminiStreamEncoder(responseContext);
  return parts.map((part) => encoder.encode(part)).join('') + encoder.finish();
}

function decode(text: string): StreamPart[] {
  const decoder = createGeminiStreamDecoder();
  const parts: StreamPart[] = [];
  const parser = createSseParser((event) => parts.push(...decoder.decode(event)));
  parser.feed(text);
  parser.end();
  return [...parts, ...decoder.end()];
}

const records = (text: string) => text.split('\n\n').filter(Boolean).map((record) => JSON.parse(record.replace(/^data: /, '')));

describe('createGeminiStreamEncoder', () => {
  it('writes data-only records holding only the new parts, finishReason and usage on the last', () => {
    const text = encode([
      { type: 'start', id: 'up_1', model: 'other-model' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hel' },
      { type: 'text-delta', id: 't', delta: 'lo' },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: { input: { total: 8 }, output: { total: 2 } } },
    ]);
    expect(text).toBe(
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]},"index":0}],"modelVersion":"gemini-test","responseId":"req_1"}\n\n' +
        'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"lo"}]},"index":0}],"modelVersion":"gemini-test","responseId":"req_1"}\n\n' +
        'data: {"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":8,"candidatesTokenCount":2,"totalTokenCount":10},"modelVersion":"gemini-test","responseId":"req_1"}\n\n',
    );
    expect(text).not.toContain('event:');
  });

  it('writes thoughts, whole function calls with id and signature, files, and other choices', () => {
    const signed = { gemini: { thoughtSignature: 'sig' } };
    const text = encode([
      { type: 'reasoning-start', id: 'r', protocolMetadata: { 'anthropic-messages': { x: 1 } } },
      { type: 'reasoning-delta', id: 'r', delta: 'hmm' },
      { type: 'reasoning-end', id: 'r', signature: 'anthropic-signature' },
      { type: 'tool-input-start', id: 'call_1', toolName: 'f' },
      { type: 'tool-input-delta', id: 'call_1', delta: '{"a":' },
      { type: 'tool-input-delta', id: 'call_1', delta: '1}' },
      { type: 'tool-input-end', id: 'call_1' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'f', input: '{"a":1}', protocolMetadata: signed },
      { type: 'file', mediaType: 'image/png', base64: 'AAAA', choice: 1 },
      { type: 'text-end', id: 'x', protocolMetadata: signed },
    ]);
    expect(records(text).map((record) => [record.candidates[0].index, record.candidates[0].content.parts])).toEqual([
      [0, [{ text: 'hmm', thought: true }]],
      [0, [{ functionCall: { id: 'call_1', name: 'f', args: { a: 1 } }, thoughtSignature: 'sig' }]],
      [1, [{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }]],
      [0, [{ text: '', thoughtSignature: 'sig' }]],
    ]);
  });

  it('sends thoughts only to a client that asked for them (includeThoughts), as Gemini does', () => {
    const parts: StreamPart[] = [
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'hmm' },
      { type: 'reasoning-end', id: 'r', protocolMetadata: { gemini: { thoughtSignature: 'sig' } } },
      { type: 'text-delta', id: 't', delta: 'Answer.' },
    ];
    expect(records(encode(parts, context({}, false))).map((record) => record.candidates[0].content.parts)).toEqual([[{ text: 'Answer.' }]]);
  });

  it('sends a part the core has no type for as the original Gemini part, not its text', () => {
    const part = { executableCode: { language: 'PYTHON', code: 'print(1)' } };
    const text = encode([
      { type: 'text-start', id: 'c', protocolMetadata: { gemini: { part } } },
      { type: 'text-delta', id: 'c', delta: '```python\nprint(1)\n```' },
      { type: 'text-end', id: 'c' },
    ]);
    expect(records(text).map((record) => record.candidates[0].content.parts)).toEqual([[part]]);
  });

  it('writes a blocked prompt as promptFeedback without candidates', () => {
    const promptFeedback = { blockReason: 'SAFETY' };
    const text = encode([{ type: 'finish', finishReason: { unified: 'content-filter', raw: 'SAFETY' }, usage: { input: {}, output: {} }, protocolMetadata: { gemini: { promptFeedback } } }]);
    expect(records(text)).toEqual([{ promptFeedback, modelVersion: 'gemini-test', responseId: 'req_1' }]);
  });

  it('writes an error as bare JSON, not data-framed, and nothing after it', () => {
    const encoder = createGeminiStreamEncoder(context());
    expect(encoder.encode({ type: 'error', error: new GatewayError('overloaded', 'Busy.') })).toBe('{"error":{"code":503,"message":"Busy.","status":"UNAVAILABLE"}}');
    expect(encoder.encode({ type: 'text-delta', id: 't', delta: 'late' })).toBe('');
    expect(encoder.finish()).toBe('');
  });

  it('keeps the stream alive with an SSE comment, which @google/genai drops', () => {
    expect(createGeminiStreamEncoder(context()).keepAlive()).toBe(': keep-alive\n\n');
  });

  it('writes text and thought deltas as the JSON of the whole response, whatever their characters', () => {
    const encoder = createGeminiStreamEncoder(context({ requestId: 'req_"2"', model: 'gemini\\test' }));
    const delta = 'say "hi"\n\t\\ \u2028 é 🙂 \u0000';
    const expected = (part: object, index: number) =>
      `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [part] }, index }], modelVersion: 'gemini\\test', responseId: 'req_"2"' })}\n\n`;
    expect(encoder.encode({ type: 'text-delta', id: 't', delta, choice: 2 })).toBe(expected({ text: delta }, 2));
    expect(encoder.encode({ type: 'reasoning-delta', id: 'r', delta })).toBe(expected({ text: delta, thought: true }, 0));
  });
});

/** Wire-level fields that legitimately differ after one trip: the upstream's usage object and the
 * ids that the encoder writes on calls for the client to echo (then carried as functionCallId). */
function normalize(response: GenerateResponse): unknown {
  return JSON.parse(JSON.stringify({ ...response, usage: { ...response.usage, raw: undefined } }), (key, value) => {
    if (key === 'functionCallId') return undefined;
    if (key === 'protocolMetadata' && value && Object.keys(value.gemini ?? {}).length === 0) return undefined;
    return value;
  });
}

describe('Gemini stream round trips: decode → encode → decode', () => {
  const names = readdirSync(FIXTURES).filter((name) => name.endsWith('.sse'));
  it.each(names)('%s', (name) => {
    const first = decode(readFileSync(new URL(name, FIXTURES), 'utf8'));
    const firstResponse = collectStreamParts(first);
    const responseContext = context({ requestId: firstResponse.id ?? 'req_1', model: firstResponse.model ?? 'gemini-test' });
    const encoded = encode(first, responseContext);
    const second = decode(encoded);
    // The encoder always writes modelVersion and responseId (the blocked-prompt fixture has neither).
    expect(normalize(collectStreamParts(second))).toEqual(normalize({ ...firstResponse, id: responseContext.requestId, model: responseContext.model }));
    // A second trip writes exactly the same bytes.
    expect(encode(second, responseContext)).toBe(encoded);
  });
});
