import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectStreamParts } from '../../core/collect-stream.js';
import type { StreamPart } from '../../core/stream-part.js';
import { createSseParser } from '../../sse/parse-sse.js';
import { convertGeminiUsage } from './convert-usage.js';
import { createGeminiStreamDecoder } from './decode-stream.js';

type Json = Record<string, any>;

const readFixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/gemini/${name}`, import.meta.url), 'utf8');

/** The fixture's records, parsed on their own (the oracle the decoder is checked against). */
const recordsOf = (name: string): Json[] =>
  readFixture(name)
    .split('\r\n\r\n')
    .filter((record) => record.trim())
    .map((record) => JSON.parse(record.replace(/^data: /, '')));

const partsOf = (records: Json[]): Json[] => records.flatMap((record) => record.candidates?.[0]?.content?.parts ?? []);
const joinText = (records: Json[], thought: boolean) =>
  partsOf(records)
    .filter((part) => typeof part.text === 'string' && (part.thought === true) === thought)
    .map((part) => part.text)
    .join('');

function decodeSse(text: string | string[]): StreamPart[] {
  const decoder = createGeminiStreamDecoder();
  const parts: StreamPart[] = [];
  const parser = createSseParser((event) => parts.push(...decoder.decode(event)));
  for (const chunk of Array.isArray(text) ? text : [text]) parser.feed(chunk);
  parser.end();
  parts.push(...decoder.end());
  return parts;
}

const decodeFixture = (name: string) => collectStreamParts(decodeSse(readFixture(name)));

describe('createGeminiStreamDecoder on the recorded streams', () => {
  it('text-stream: concatenated text, STOP, the last usage', () => {
    const records = recordsOf('text-stream.sse');
    expect(decodeFixture('text-stream.sse')).toEqual({
      id: 'ru1garvBEoOiqtsP2fznmQw',
      model: 'gemini-2.5-flash',
      choices: [{ index: 0, content: [{ type: 'text', text: joinText(records, false) }], finishReason: { unified: 'stop', raw: 'STOP' } }],
      usage: { input: { total: 18, noCache: 18 }, output: { total: 115, text: 80, reasoning: 35 }, raw: records[2].usageMetadata },
    });
    expect(joinText(records, false)).toMatch(/^1\n2\n.*\n30$/s);
  });

  it('text-stream: the part sequence, one text block, finish after the record with finishReason', () => {
    expect(decodeSse(readFixture('text-stream.sse')).map((part) => part.type)).toEqual([
      'start', 'text-start', 'text-delta', 'text-delta', 'text-delta', 'text-end', 'finish',
    ]);
  });

  it('thinking-stream: thought parts as reasoning, the signature on the answer text', () => {
    const records = recordsOf('thinking-stream.sse');
    expect(decodeFixture('thinking-stream.sse')).toEqual({
      id: 'beHBaJfEMIi-qtsP3769-Q8',
      model: 'gemini-2.5-pro',
      choices: [
        {
          index: 0,
          content: [
            { type: 'reasoning', text: joinText(records, true) },
            { type: 'text', text: joinText(records, false), protocolMetadata: { gemini: { thoughtSignature: partsOf(records)[4].thoughtSignature } } },
          ],
          finishReason: { unified: 'stop', raw: 'STOP' },
        },
      ],
      usage: { input: { total: 34, noCache: 34 }, output: { total: 1256, text: 469, reasoning: 787 }, raw: records.at(-1)!.usageMetadata },
    });
  });

  it('thinking-tool-call-stream: reasoning then a call with a synthesized id and its signature', () => {
    const records = recordsOf('thinking-tool-call-stream.sse');
    expect(decodeFixture('thinking-tool-call-stream.sse')).toEqual({
      id: '48SHaPHpHKbG-8YPtZCawAk',
      model: 'gemini-2.5-flash',
      choices: [
        {
          index: 0,
          content: [
            { type: 'reasoning', text: joinText(records, true) },
            {
              type: 'tool-call',
              toolCallId: 'call_48SHaPHpHKbG-8YPtZCawAk_0_0',
              toolName: 'now',
              input: '{}',
              protocolMetadata: { gemini: { thoughtSignature: partsOf(records)[2].thoughtSignature } },
            },
          ],
          finishReason: { unified: 'tool-calls', raw: 'STOP' },
        },
      ],
      usage: { input: { total: 38, noCache: 38 }, output: { total: 174, text: 6, reasoning: 168 }, raw: records[2].usageMetadata },
    });
  });

  it('tool-call-stream: the call whole, the empty closing text ignored, STOP with a call → tool-calls', () => {
    const records = recordsOf('tool-call-stream.sse');
    const parts = decodeSse(readFixture('tool-call-stream.sse'));
    const metadata = { gemini: { thoughtSignature: partsOf(records)[0].thoughtSignature } };
    const id = 'call_QUVVadTSNJ6_qtsPvN7J8Q0_0_0';
    expect(parts.slice(0, 5)).toEqual([
      { type: 'start', id: 'QUVVadTSNJ6_qtsPvN7J8Q0', model: 'gemini-3-pro-preview' },
      { type: 'tool-input-start', id, toolName: 'get_country', protocolMetadata: metadata },
      { type: 'tool-input-delta', id, delta: '{}' },
      { type: 'tool-input-end', id },
      { type: 'tool-call', toolCallId: id, toolName: 'get_country', input: '{}', protocolMetadata: metadata },
    ]);
    expect(collectStreamParts(parts)).toEqual({
      id: 'QUVVadTSNJ6_qtsPvN7J8Q0',
      model: 'gemini-3-pro-preview',
      choices: [
        { index: 0, content: [{ type: 'tool-call', toolCallId: id, toolName: 'get_country', input: '{}', protocolMetadata: metadata }], finishReason: { unified: 'tool-calls', raw: 'STOP' } },
      ],
      usage: { input: { total: 29, noCache: 29 }, output: { total: 212, text: 10, reasoning: 202 }, raw: records[1].usageMetadata },
    });
  });

  it('tool-call-partial-args-stream-vertex: Vertex streamed arguments assembled into two whole calls', () => {
    const records = recordsOf('tool-call-partial-args-stream-vertex.sse');
    expect(decodeFixture('tool-call-partial-args-stream-vertex.sse')).toEqual({
      id: 'dqHOab6xGLzWodAPkPuViA4',
      model: 'gemini-3.1-pro-preview',
      choices: [
        {
          index: 0,
          content: [
            {
              type: 'tool-call',
              toolCallId: 'call_dqHOab6xGLzWodAPkPuViA4_0_0',
              toolName: 'getWeather',
              input: '{"location":"Boston"}',
              protocolMetadata: { gemini: { thoughtSignature: partsOf(records)[0].thoughtSignature } },
            },
            { type: 'tool-call', toolCallId: 'call_dqHOab6xGLzWodAPkPuViA4_0_1', toolName: 'getWeather', input: '{"location":"San Francisco"}' },
          ],
          finishReason: { unified: 'tool-calls', raw: 'STOP' },
        },
      ],
      usage: { input: { total: 26, noCache: 26 }, output: { total: 155, text: 23, reasoning: 132 }, raw: records.at(-1)!.usageMetadata },
    });
  });

  it('code-execution-stream: code and its output as readable text, the parts kept for Gemini', () => {
    const records = recordsOf('code-execution-stream.sse');
    const [code, , result] = [partsOf(records)[0], partsOf(records)[1], partsOf(records)[2]];
    expect(decodeFixture('code-execution-stream.sse')).toEqual({
      id: 'n1P6abvRFaKdz7IPkcuQ2Aw',
      model: 'gemini-3-flash-preview',
      choices: [
        {
          index: 0,
          content: [
            { type: 'text', text: '\n```python\nresult = 65465 - 6544 * 65464 - 6 + 1.02255\nprint(result)\n```\n', protocolMetadata: { gemini: { part: code } } },
            { type: 'text', text: '\nOutput:\n```\n-428330955.97745\n\n```\n', protocolMetadata: { gemini: { part: result } } },
            {
              type: 'text',
              text: 'The result of $65465 - 6544 \\times 65464 - 6 + 1.02255$ is **-428,330,955.97745**.',
              protocolMetadata: { gemini: { thoughtSignature: partsOf(records).at(-1)!.thoughtSignature } },
            },
          ],
          finishReason: { unified: 'stop', raw: 'STOP' },
        },
      ],
      // Server-side tool tokens (toolUsePromptTokenCount 360) count as input.
      usage: { input: { total: 507, noCache: 507 }, output: { total: 276, text: 108, reasoning: 168 }, raw: records.at(-1)!.usageMetadata },
    });
  });

  it('image-stream-vertex: inline image data as a file, safety ratings kept for Gemini clients', () => {
    const records = recordsOf('image-stream-vertex.sse');
    expect(decodeFixture('image-stream-vertex.sse')).toEqual({
      id: 'p8MTaMOVKoiUhMIPqu3o2Qc',
      model: 'gemini-2.0-flash-exp',
      choices: [
        {
          index: 0,
          content: [{ type: 'file', mediaType: 'image/png', data: { type: 'base64', base64: partsOf(records)[0].inlineData.data } }],
          finishReason: { unified: 'stop', raw: 'STOP' },
        },
      ],
      usage: { input: { total: 15, noCache: 15 }, output: { total: 258, text: 258 }, raw: records[1].usageMetadata },
      protocolMetadata: { gemini: { candidates: [{ index: 0, safetyRatings: records[0].candidates[0].safetyRatings }] } },
    });
  });

  it('prompt-blocked-safety-stream: no candidates, the block reason as a content-filter finish', () => {
    const [record] = recordsOf('prompt-blocked-safety-stream.sse');
    const parts = decodeSse(readFixture('prompt-blocked-safety-stream.sse'));
    expect(parts).toEqual([
      { type: 'start' },
      { type: 'finish', finishReason: { unified: 'content-filter', raw: 'SAFETY' }, usage: { input: {}, output: {} }, protocolMetadata: { gemini: { promptFeedback: record.promptFeedback } } },
    ]);
    expect(collectStreamParts(parts).choices).toEqual([{ index: 0, content: [], finishReason: { unified: 'content-filter', raw: 'SAFETY' } }]);
  });

  it('web-search-grounding-stream: text, tool-use prompt tokens as input, grounding metadata kept', () => {
    const records = recordsOf('web-search-grounding-stream.sse');
    expect(decodeFixture('web-search-grounding-stream.sse')).toEqual({
      id: 'ftnJaMmAMcm-qtsPwvCCoAo',
      model: 'gemini-2.5-pro',
      choices: [{ index: 0, content: [{ type: 'text', text: joinText(records, false) }], finishReason: { unified: 'stop', raw: 'STOP' } }],
      usage: { input: { total: 119, noCache: 119 }, output: { total: 653, text: 241, reasoning: 412 }, raw: records.at(-1)!.usageMetadata },
      protocolMetadata: { gemini: { candidates: [{ index: 0, groundingMetadata: records.at(-1)!.candidates[0].groundingMetadata }] } },
    });
  });
});

describe('createGeminiStreamDecoder edge cases', () => {
  const record = (body: Json) => `data: ${JSON.stringify(body)}\r\n\r\n`;
  const text = (value: string, extra: Json = {}) => record({ candidates: [{ content: { role: 'model', parts: [{ text: value }] }, index: 0, ...extra }], responseId: 'r1' });

  it('turns a bare JSON error written mid-stream (over several lines) into an error part', () => {
    const error = JSON.stringify({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }, null, 2);
    const parts = decodeSse([text('Hel'), `${error}\n`]);
    expect(parts.map((part) => part.type)).toEqual(['start', 'text-start', 'text-delta', 'error']);
    const failure = parts.at(-1) as Extract<StreamPart, { type: 'error' }>;
    expect(failure.error).toMatchObject({ code: 'overloaded', status: 503, message: 'The model is overloaded.', detailCode: 'UNAVAILABLE' });
    expect(collectStreamParts(parts).choices[0]).toEqual({ index: 0, content: [{ type: 'text', text: 'Hel' }], finishReason: { unified: 'error' } });
  });

  it('reads a data-framed error record too, and a 4xx mid-stream becomes an upstream error', () => {
    const parts = decodeSse(record({ error: { code: 400, message: 'Bad thing.', status: 'INVALID_ARGUMENT' } }));
    expect(parts).toHaveLength(1);
    expect((parts[0] as Extract<StreamPart, { type: 'error' }>).error).toMatchObject({ code: 'upstream_error', status: 502, message: 'Bad thing.' });
  });

  it('reports bytes that are neither SSE nor JSON at the end of the stream as an error', () => {
    const parts = decodeSse([text('Hi'), '{"error": {"code": 500,']);
    expect(parts.at(-1)).toMatchObject({ type: 'error', error: { code: 'upstream_error' } });
  });

  it('skips records after the finishing one, on purpose', () => {
    const parts = decodeSse([text('A'), text('B', { finishReason: 'STOP' }), text('late')]);
    expect(collectStreamParts(parts).choices[0].content).toEqual([{ type: 'text', text: 'AB' }]);
  });

  it('ends the stream with an error part at a record that is not JSON, keeping what came before', () => {
    const parts = decodeSse([text('A'), 'data: {"candidates":[{"cont\r\n\r\n', text('B', { finishReason: 'STOP' })]);
    expect(parts.at(-1)).toMatchObject({ type: 'error', error: { status: 502, detailCode: 'upstream_invalid_event' } });
    expect(collectStreamParts(parts).choices[0].content).toEqual([{ type: 'text', text: 'A' }]);
  });

  it('ends a stream with no finishReason with an error part at end(), never a finish', () => {
    const parts = decodeSse(text('cut'));
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
    expect(parts.at(-1)).toMatchObject({ type: 'error', error: { code: 'upstream_error', status: 502, detailCode: 'upstream_ended_early' } });
  });

  it('keeps the wire id of a call and maps every candidate to its choice', () => {
    const body = {
      candidates: [
        { content: { role: 'model', parts: [{ functionCall: { id: 'fc-1', name: 'f', args: { a: 1 } } }] }, index: 0, finishReason: 'STOP' },
        { content: { role: 'model', parts: [{ text: 'two' }] }, index: 1, finishReason: 'MAX_TOKENS' },
      ],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4, totalTokenCount: 7 },
      responseId: 'r2',
    };
    expect(collectStreamParts(decodeSse(record(body)))).toEqual({
      id: 'r2',
      choices: [
        { index: 0, content: [{ type: 'tool-call', toolCallId: 'fc-1', toolName: 'f', input: '{"a":1}', protocolMetadata: { gemini: { functionCallId: 'fc-1' } } }], finishReason: { unified: 'tool-calls', raw: 'STOP' } },
        { index: 1, content: [{ type: 'text', text: 'two' }], finishReason: { unified: 'length', raw: 'MAX_TOKENS' } },
      ],
      usage: convertGeminiUsage(body.usageMetadata),
    });
  });

  it('assembles streamed arguments at nested paths, arrays, numbers, booleans and nulls', () => {
    const call = (functionCall: Json) => record({ candidates: [{ content: { role: 'model', parts: [{ functionCall }] } }], responseId: 'r3' });
    const parts = decodeSse([
      call({ name: 'plan', willContinue: true }),
      call({ partialArgs: [{ jsonPath: '$.trip.city', stringValue: 'New ', willContinue: true }], willContinue: true }),
      call({ partialArgs: [{ jsonPath: '$.trip.city', stringValue: 'York' }, { jsonPath: '$.days[0]', numberValue: 2 }], willContinue: true }),
      call({ partialArgs: [{ jsonPath: "$['fast track']", boolValue: true }, { jsonPath: '$.note', nullValue: 'NULL_VALUE' }], willContinue: true }),
      call({}),
    ]);
    expect(collectStreamParts(parts).choices[0].content).toEqual([
      { type: 'tool-call', toolCallId: 'call_r3_0_0', toolName: 'plan', input: '{"trip":{"city":"New York"},"days":[2],"fast track":true,"note":null}' },
    ]);
  });
});
