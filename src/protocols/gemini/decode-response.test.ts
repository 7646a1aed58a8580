import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import { decodeGeminiResponse } from './decode-response.js';

type Json = Record<string, any>;
const readFixture = (name: string): Json => JSON.parse(readFileSync(new URL(`../../../test/fixtures/gemini/${name}`, import.meta.url), 'utf8'));

describe('decodeGeminiResponse on the recorded responses', () => {
  it('text: one text part, thoughts counted in output', () => {
    const body = readFixture('text.json');
    expect(decodeGeminiResponse(body)).toEqual({
      id: 'bzlXaa_EE_aHqtsPi_zw8Ao',
      model: 'gemini-2.5-flash',
      choices: [{ index: 0, content: [{ type: 'text', text: 'Hello! How can I help you today?' }], finishReason: { unified: 'stop', raw: 'STOP' } }],
      usage: { input: { total: 9, noCache: 9 }, output: { total: 43, text: 9, reasoning: 34 }, raw: body.usageMetadata },
    });
  });

  it('cached-content: cachedContentTokenCount is the cache read, included in the input total', () => {
    const body = readFixture('cached-content.json');
    expect(decodeGeminiResponse(body).usage).toEqual({
      input: { total: 3520, noCache: 8, cacheRead: 3512 },
      output: { total: 44, text: 2, reasoning: 42 },
      raw: body.usageMetadata,
    });
  });

  it('max-tokens: MAX_TOKENS → length', () => {
    const body = readFixture('max-tokens.json');
    expect(decodeGeminiResponse(body)).toEqual({
      id: 'R5MoavWNNp_8qtsP2fWD2A0',
      model: 'gemini-2.5-flash',
      choices: [{ index: 0, content: [{ type: 'text', text: 'The capital of France is' }], finishReason: { unified: 'length', raw: 'MAX_TOKENS' } }],
      usage: { input: { total: 15, noCache: 15 }, output: { total: 5, text: 5 }, raw: body.usageMetadata },
    });
  });

  it('parallel-tool-calls: three calls, ids stable by position, only the first signed', () => {
    const body = readFixture('parallel-tool-calls.json');
    const call = (position: number) => ({ type: 'tool-call', toolCallId: `call_wOd8abGuO5rgz7IP5tLEGA_0_${position}`, toolName: 'generate_topic', input: '{}' });
    expect(decodeGeminiResponse(body)).toEqual({
      id: 'wOd8abGuO5rgz7IP5tLEGA',
      model: 'gemini-3-flash-preview',
      choices: [
        {
          index: 0,
          content: [{ ...call(0), protocolMetadata: { gemini: { thoughtSignature: body.candidates[0].content.parts[0].thoughtSignature } } }, call(1), call(2)],
          finishReason: { unified: 'tool-calls', raw: 'STOP' },
        },
      ],
      usage: { input: { total: 83, noCache: 83 }, output: { total: 220, text: 30, reasoning: 190 }, raw: body.usageMetadata },
      protocolMetadata: { gemini: { candidates: [{ index: 0, finishMessage: 'Model generated function call(s).' }] } },
    });
  });

  it('thinking: the thought part as reasoning, the signature on the answer', () => {
    const body = readFixture('thinking.json');
    const [thought, answer] = body.candidates[0].content.parts;
    expect(decodeGeminiResponse(body)).toEqual({
      id: body.responseId,
      model: 'gemini-3-pro-preview',
      choices: [
        {
          index: 0,
          content: [
            { type: 'reasoning', text: thought.text },
            { type: 'text', text: answer.text, protocolMetadata: { gemini: { thoughtSignature: answer.thoughtSignature } } },
          ],
          finishReason: { unified: 'stop', raw: 'STOP' },
        },
      ],
      usage: { input: { total: 29, noCache: 29 }, output: { total: 1737, text: 736, reasoning: 1001 }, raw: body.usageMetadata },
    });
  });

  it('safety-finish: SAFETY with no content → content filter, the ratings kept', () => {
    const body = readFixture('safety-finish.json');
    expect(decodeGeminiResponse(body)).toEqual({
      id: '5lpeaLOIBf__698Pv8HGgAg',
      model: 'gemini-1.5-flash',
      choices: [{ index: 0, content: [], finishReason: { unified: 'content-filter', raw: 'SAFETY' } }],
      usage: { input: { total: 14, noCache: 14 }, output: {}, raw: body.usageMetadata },
      protocolMetadata: { gemini: { candidates: [{ index: 0, safetyRatings: body.candidates[0].safetyRatings }] } },
    });
  });

  it('prompt-blocked-model-armor-vertex: no candidates → one empty choice, the block reason raw', () => {
    const body = readFixture('prompt-blocked-model-armor-vertex.json');
    expect(decodeGeminiResponse(body)).toEqual({
      id: 'mSEXaseKG-P51PIPwv66qQs',
      model: 'gemini-2.5-flash',
      choices: [{ index: 0, content: [], finishReason: { unified: 'content-filter', raw: 'MODEL_ARMOR' } }],
      usage: { input: {}, output: {}, raw: { trafficType: 'ON_DEMAND' } },
      protocolMetadata: { gemini: { promptFeedback: body.promptFeedback } },
    });
  });

  it('stop-sequence: text cut before the stop word ends with STOP; no candidate index → position', () => {
    const body = readFixture('stop-sequence.json');
    expect(decodeGeminiResponse(body)).toEqual({
      id: 'UB5DaMfEN7jFnvgPocrJaA',
      model: 'gemini-1.5-flash',
      choices: [{ index: 0, content: [{ type: 'text', text: 'The most iconic city in France is ' }], finishReason: { unified: 'stop', raw: 'STOP' } }],
      usage: { input: { total: 25, noCache: 25 }, output: { total: 8, text: 8 }, raw: body.usageMetadata },
      protocolMetadata: { gemini: { candidates: [{ index: 0, avgLogprobs: -0.5998413562774658 }] } },
    });
  });

  it('structured-output: the JSON answer is a text part', () => {
    const body = readFixture('structured-output.json');
    expect(decodeGeminiResponse(body).choices[0].content).toEqual([{ type: 'text', text: '{\n  "city": "Mexico City",\n  "country": "Mexico"\n}' }]);
  });

  it('image-vertex: inline image data as a file part', () => {
    const body = readFixture('image-vertex.json');
    expect(decodeGeminiResponse(body).choices).toEqual([
      {
        index: 0,
        content: [{ type: 'file', mediaType: 'image/png', data: { type: 'base64', base64: body.candidates[0].content.parts[0].inlineData.data } }],
        finishReason: { unified: 'stop', raw: 'STOP' },
      },
    ]);
  });
});

describe('decodeGeminiResponse edge cases', () => {
  it('rejects a body that is not a GenerateContentResponse', () => {
    expect(() => decodeGeminiResponse({ choices: [] })).toThrow(GatewayError);
  });

  it('keeps wire ids and parts the core has no type for', () => {
    const part = { executableCode: { language: 'PYTHON', code: 'print(1)' } };
    const response = decodeGeminiResponse({
      candidates: [{ content: { role: 'model', parts: [part, { functionCall: { id: 'abc', name: 'f' } }] }, finishReason: 'MALFORMED_FUNCTION_CALL' }],
    });
    expect(response.choices).toEqual([
      {
        index: 0,
        content: [
          { type: 'text', text: '\n```python\nprint(1)\n```\n', protocolMetadata: { gemini: { part } } },
          { type: 'tool-call', toolCallId: 'abc', toolName: 'f', input: '{}', protocolMetadata: { gemini: { functionCallId: 'abc' } } },
        ],
        finishReason: { unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' },
      },
    ]);
  });
});
