import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GenerateResponse } from '../../core/generate-response.js';
import type { ResponseContext } from '../protocol-codec.js';
import { decodeGeminiResponse } from './decode-response.js';
import { encodeGeminiResponse } from './encode-response.js';

const FIXTURES = new URL('../../../test/fixtures/gemini/', import.meta.url);
const context = (overrides: Partial<ResponseContext> = {}, includeThoughts = true): ResponseContext => ({
  requestId: 'req_1',
  created: 1,
  model: 'gemini-test',
  request: { model: 'gemini-test', system: [], tools: [], stream: false, reasoning: { includeThoughts }, extensions: {} },
  ...overrides,
});

describe('encodeGeminiResponse', () => {
  it('writes candidates with model parts, finishReason, index, usage, modelVersion and responseId', () => {
    const response: GenerateResponse = {
      id: 'upstream-id',
      model: 'upstream-model',
      choices: [
        {
          index: 0,
          content: [
            { type: 'reasoning', text: 'Let me think.', signature: 'anthropic-only' },
            { type: 'reasoning', text: '', redactedData: 'opaque' },
            { type: 'text', text: 'Calling.', protocolMetadata: { gemini: { thoughtSignature: 'sig-text' } } },
            { type: 'tool-call', toolCallId: 'toolu_9', toolName: 'lookup', input: '{"q":"x"}' },
            { type: 'tool-call', toolCallId: 'call_2', toolName: 'broken', input: 'not json' },
            { type: 'file', mediaType: 'image/png', data: { type: 'base64', base64: 'AAAA' } },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        },
        { index: 1, content: [{ type: 'text', text: 'Other.' }], finishReason: { unified: 'length' } },
      ],
      usage: { input: { total: 20, cacheRead: 5 }, output: { total: 9, reasoning: 4 } },
    };
    expect(encodeGeminiResponse(response, context())).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Let me think.', thought: true },
              { text: 'Calling.', thoughtSignature: 'sig-text' },
              { functionCall: { id: 'toolu_9', name: 'lookup', args: { q: 'x' } } },
              // Arguments that are not a JSON object are wrapped, not lost.
              { functionCall: { id: 'call_2', name: 'broken', args: { input: 'not json' } } },
              { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
        { content: { role: 'model', parts: [{ text: 'Other.' }] }, finishReason: 'MAX_TOKENS', index: 1 },
      ],
      usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 5, totalTokenCount: 29, thoughtsTokenCount: 4, cachedContentTokenCount: 5 },
      modelVersion: 'gemini-test',
      responseId: 'req_1',
    });
  });

  it('leaves thoughts out when the client did not ask for them, as Gemini does', () => {
    const response: GenerateResponse = {
      choices: [{ index: 0, content: [{ type: 'reasoning', text: 'Hmm.' }, { type: 'text', text: 'Yes.' }], finishReason: { unified: 'stop' } }],
      usage: { input: {}, output: {} },
    };
    expect(encodeGeminiResponse(response, context({}, false))).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Yes.' }] }, finishReason: 'STOP', index: 0 }],
      modelVersion: 'gemini-test',
      responseId: 'req_1',
    });
  });
});

/** After one trip calls carry the id the client echoes (functionCallId) and usage its own raw object. */
function normalize(response: GenerateResponse): unknown {
  return JSON.parse(JSON.stringify({ ...response, usage: { ...response.usage, raw: undefined } }), (key, value) => {
    if (key === 'functionCallId') return undefined;
    if (key === 'protocolMetadata' && value && Object.keys(value.gemini ?? {}).length === 0) return undefined;
    return value;
  });
}

describe('Gemini response round trips: decode → encode → decode', () => {
  const names = readdirSync(FIXTURES).filter((name) => name.endsWith('.json') && !name.startsWith('error-'));
  it.each(names)('%s', (name) => {
    const first = decodeGeminiResponse(JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8')));
    const responseContext = context({ requestId: first.id ?? 'req_1', model: first.model ?? 'gemini-test' });
    const encoded = encodeGeminiResponse(first, responseContext);
    const second = decodeGeminiResponse(encoded);
    expect(normalize(second)).toEqual(normalize(first));
    expect(encodeGeminiResponse(second, responseContext)).toEqual(encoded);
  });

  it('a blocked prompt goes back as promptFeedback without candidates', () => {
    const body = JSON.parse(readFileSync(new URL('prompt-blocked-model-armor-vertex.json', FIXTURES), 'utf8'));
    expect(encodeGeminiResponse(decodeGeminiResponse(body), context())).toEqual({
      promptFeedback: body.promptFeedback,
      modelVersion: 'gemini-test',
      responseId: 'req_1',
    });
  });
});
