import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectStreamParts } from '../../core/collect-stream.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { GenerateResponse } from '../../core/generate-response.js';
import type { StreamPart } from '../../core/stream-part.js';
import { decodeSseText } from '../decode-sse-text.js';
import type { JsonObject } from '../read-fields.js';
import { createOpenAIResponsesStreamDecoder } from './decode-stream.js';

const FIXTURES = new URL('../../../test/fixtures/openai-responses/', import.meta.url);

function decodeStreamText(text: string | Uint8Array): StreamPart[] {
  return decodeSseText(text, createOpenAIResponsesStreamDecoder());
}

const decodeFixture = (name: string) => decodeStreamText(readFileSync(new URL(name, FIXTURES)));

function fixtureEvents(name: string): JsonObject[] {
  const records = readFileSync(new URL(name, FIXTURES), 'utf8').trim().split('\n\n');
  return records.map((record) => JSON.parse(record.split('\n').find((line) => line.startsWith('data: '))!.slice(6)));
}
/** The `response` of the fixture's last event: the vendor's own account of the whole output. */
const terminalResponse = (name: string) => fixtureEvents(name).at(-1)!.response as JsonObject;
/**
 * The item of the fixture's `output_item.done` at an output index. (OpenAI re-encrypts reasoning
 * for every event, so `encrypted_content` differs between added, done and the terminal response.)
 */
const outputOf = (name: string, index: number) =>
  fixtureEvents(name).find((event) => event.type === 'response.output_item.done' && event.output_index === index)!.item as JsonObject;

const own = (metadata: Record<string, unknown>) => ({ protocolMetadata: { 'openai-responses': metadata } });

/** Expected collected response of every recorded stream (the usage's `raw` is the terminal usage). */
const EXPECTED: Record<string, () => Omit<GenerateResponse, 'usage'> & { usage: Omit<GenerateResponse['usage'], 'raw'> }> = {
  'text-stream.sse': () => ({
    id: 'resp_0fabc13af1ee0049006a691dffc71481a18c5ea1841dec14ce',
    model: 'gpt-5.5-2026-04-23',
    choices: [
      {
        index: 0,
        content: [
          { type: 'text', text: 'The capital of PotatoLand is **Potato City**.', ...own({ itemId: 'msg_0fabc13af1ee0049006a691e008ed881a19fb315ceb267e808', phase: 'final_answer' }) },
        ],
        finishReason: { unified: 'stop', raw: 'completed' },
      },
    ],
    usage: { input: { total: 147, noCache: 147, cacheRead: 0, cacheWrite: 0 }, output: { total: 16, text: 16, reasoning: 0 } },
  }),
  'tool-call-stream.sse': () => ({
    id: 'resp_0050471a34b36ae60068c97b94a480819587a9d70cf2979b33',
    model: 'gpt-5-2025-08-07',
    choices: [
      {
        index: 0,
        content: [
          {
            type: 'reasoning',
            text: '',
            ...own({ itemId: 'rs_0050471a34b36ae60068c97bac4dcc819595fd0f80d6b3c405', encryptedContent: outputOf('tool-call-stream.sse', 0).encrypted_content }),
          },
          {
            type: 'tool-call',
            toolCallId: 'call_CWXgs68YprAjp6t0371hiPOI',
            toolName: 'final_result',
            input: '{"result":6666}',
            ...own({ itemId: 'fc_0050471a34b36ae60068c97bf19d9c819590eaf42c0edc1042' }),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'completed' },
      },
    ],
    usage: { input: { total: 53, noCache: 53, cacheRead: 0 }, output: { total: 469, text: 21, reasoning: 448 } },
  }),
  'reasoning-summary-tool-call-stream.sse': () => ({
    id: 'resp_01830d662ab3856501693c321345c88190b0de00f3b9975691',
    model: 'gpt-5.1-codex-max',
    choices: [
      {
        index: 0,
        content: [
          {
            type: 'reasoning',
            text: "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.",
            ...own({
              itemId: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
              encryptedContent: outputOf('reasoning-summary-tool-call-stream.sse', 0).encrypted_content,
            }),
          },
          {
            type: 'tool-call',
            toolCallId: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
            toolName: 'calculator',
            input: '{"a":12,"b":7,"op":"add"}',
            ...own({ itemId: 'fc_01830d662ab3856501693c32151234819091cfca267e98cc5f' }),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'completed' },
      },
    ],
    usage: { input: { total: 134, noCache: 134, cacheRead: 0 }, output: { total: 28, text: 28, reasoning: 0 } },
  }),
  // vercel/ai trimmed most deltas from this recording: the `.done` texts fill in the rest.
  'cached-tokens-stream.sse': () => ({
    id: 'resp_0a63f40a2632b74300699f8818e5648196a8fa657ae8091421',
    model: 'gpt-5.3-codex',
    choices: [
      {
        index: 0,
        content: [
          {
            type: 'text',
            text: 'Got it — I’ll quickly check reliable, up-to-date sources for AI headlines from **today (February 25, 2026)** and then summarize the key items with links.',
            ...own({ itemId: 'msg_0a63f40a2632b74300699f8819a5e08196ac270722d369af5a', phase: 'commentary' }),
          },
          {
            type: 'text',
            text: ((outputOf('cached-tokens-stream.sse', 2).content as JsonObject[])[0] as JsonObject).text as string,
            ...own({ itemId: 'msg_0a63f40a2632b74300699f881bfbc88196aec38f30c3dd24b0', phase: 'final_answer' }),
          },
        ],
        finishReason: { unified: 'stop', raw: 'completed' },
      },
    ],
    usage: { input: { total: 7112, noCache: 4040, cacheRead: 3072 }, output: { total: 463, text: 399, reasoning: 64 } },
  }),
  // The web_search_call item and its progress events have no core form and are skipped.
  'web-search-stream.sse': () => ({
    id: 'resp_00a60507bf41223d0068c9d2fbf93481a0ba2a7796ae2cab4c',
    model: 'gpt-5-2025-08-07',
    choices: [
      {
        index: 0,
        content: [
          { type: 'reasoning', text: '', ...own({ itemId: 'rs_00a60507bf41223d0068c9d2fc927081a088e0b920cdfe3866', encryptedContent: outputOf('web-search-stream.sse', 0).encrypted_content }) },
          { type: 'reasoning', text: '', ...own({ itemId: 'rs_00a60507bf41223d0068c9d300b23481a0b77a03d911213220', encryptedContent: outputOf('web-search-stream.sse', 2).encrypted_content }) },
          {
            type: 'text',
            text: 'San Francisco weather today (Tuesday, September 16, 2025): Mostly sunny and pleasant. Current conditions around 71°F; expected high near 73°F and low around 58°F. A light jacket is useful for the cooler evening. ',
            ...own({ itemId: 'msg_00a60507bf41223d0068c9d30b055481a0b0ee28a021919c94' }),
          },
        ],
        finishReason: { unified: 'stop', raw: 'completed' },
      },
    ],
    usage: { input: { total: 9463, noCache: 1143, cacheRead: 8320 }, output: { total: 582, text: 70, reasoning: 512 } },
  }),
  // The finished image_generation_call becomes a file part; its progress events are skipped.
  'image-generation-stream.sse': () => ({
    id: 'resp_0df93c0bb83a72f20068c979db26ac819e8b5a444fad3f0d7f',
    model: 'gpt-5-2025-08-07',
    choices: [
      {
        index: 0,
        content: [
          { type: 'reasoning', text: '', ...own({ itemId: 'rs_0df93c0bb83a72f20068c979db90b4819e94cedbfda2d49af6' }) },
          { type: 'file', mediaType: 'image/webp', data: { type: 'base64', base64: outputOf('image-generation-stream.sse', 1).result as string } },
          { type: 'text', text: '', ...own({ itemId: 'msg_0df93c0bb83a72f20068c97a0b36f4819ea5906451007f95e2' }) },
        ],
        finishReason: { unified: 'stop', raw: 'completed' },
      },
    ],
    usage: { input: { total: 2941, noCache: 1021, cacheRead: 1920 }, output: { total: 1249, text: 225, reasoning: 1024 } },
  }),
};

describe('createOpenAIResponsesStreamDecoder on recorded streams', () => {
  it('has an expectation for every .sse fixture', () => {
    const streams = readdirSync(FIXTURES).filter((name) => name.endsWith('.sse'));
    expect(streams.sort()).toEqual([...Object.keys(EXPECTED), 'error-stream.sse'].sort());
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`collects ${name}`, () => {
      const { usage, ...rest } = expected();
      expect(collectStreamParts(decodeFixture(name))).toEqual({ ...rest, usage: { ...usage, raw: terminalResponse(name).usage } });
    });
  }

  it('emits start, item parts and one finish, in order', () => {
    const types = decodeFixture('tool-call-stream.sse').map((part) => part.type);
    expect(types).toEqual([
      'start', 'reasoning-start', 'reasoning-end', 'tool-input-start',
      ...Array(6).fill('tool-input-delta'),
      'tool-input-end', 'tool-call', 'finish',
    ]);
  });

  it('turns the error event into one error part, and ignores the response.failed after it', () => {
    const parts = decodeFixture('error-stream.sse');
    expect(parts.map((part) => part.type)).toEqual(['start', 'error']);
    const error = (parts[1] as Extract<StreamPart, { type: 'error' }>).error;
    expect(error).toBeInstanceOf(GatewayError);
    expect([error.code, error.detailCode, error.message.slice(0, 34)]).toEqual(['billing', 'insufficient_quota', 'You exceeded your current quota, p']);
    expect(collectStreamParts(parts).choices[0].finishReason).toEqual({ unified: 'error' });
  });

  it('reads the flat error event shape and a response.failed on its own', () => {
    const flat = decodeStreamText(
      'event: response.created\ndata: {"type":"response.created","response":{"id":"r","output":[]}}\n\n' +
        'event: error\ndata: {"type":"error","code":"rate_limit_exceeded","message":"Slow down","param":null}\n\n',
    );
    expect(flat[1]).toEqual({ type: 'error', error: expect.objectContaining({ code: 'rate_limit', detailCode: 'rate_limit_exceeded', message: 'Slow down' }) });
    const failed = decodeStreamText('event: response.failed\ndata: {"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"Boom"}}}\n\n');
    expect(failed).toEqual([{ type: 'start' }, { type: 'error', error: expect.objectContaining({ code: 'upstream_error', message: 'Boom' }) }]);
  });

  it('skips keepalive, built-in tool progress and unknown events on purpose', () => {
    const decoder = createOpenAIResponsesStreamDecoder();
    decoder.decode({ event: 'response.created', data: '{"type":"response.created","response":{"id":"r"}}' });
    for (const type of ['keepalive', 'response.web_search_call.searching', 'response.image_generation_call.partial_image', 'response.mcp_call.in_progress', 'response.some_future_event']) {
      expect(decoder.decode({ event: type, data: JSON.stringify({ type, output_index: 0, item_id: 'x', sequence_number: 3 }) })).toEqual([]);
    }
  });

  it('joins summary parts by blank lines, as the non-stream decoding does, and reads raw reasoning_text', () => {
    const event = (data: JsonObject) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
    const item = { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'One.' }, { type: 'summary_text', text: 'Two.' }] };
    const parts = decodeStreamText(
      [
        { type: 'response.created', response: { id: 'r' } },
        { type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } },
        { type: 'response.reasoning_summary_part.added', output_index: 0, summary_index: 0 },
        { type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 0, delta: 'One.' },
        { type: 'response.reasoning_summary_part.added', output_index: 0, summary_index: 1 },
        { type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 1, delta: 'Two.' },
        { type: 'response.output_item.done', output_index: 0, item },
        { type: 'response.output_item.added', output_index: 1, item: { type: 'reasoning', id: 'rs_2', summary: [] } },
        { type: 'response.reasoning_text.delta', output_index: 1, content_index: 0, delta: 'raw thoughts' },
        { type: 'response.output_item.done', output_index: 1, item: { type: 'reasoning', id: 'rs_2', summary: [], content: [{ type: 'reasoning_text', text: 'raw thoughts' }] } },
        { type: 'response.completed', response: { status: 'completed', output: [] } },
      ]
        .map(event)
        .join(''),
    );
    expect(collectStreamParts(parts).choices[0].content).toEqual([
      { type: 'reasoning', text: 'One.\n\nTwo.', ...own({ itemId: 'rs_1' }) },
      { type: 'reasoning', text: 'raw thoughts', ...own({ itemId: 'rs_2' }) },
    ]);
  });

  it('maps response.incomplete to a length finish', () => {
    const parts = decodeStreamText(
      'event: response.incomplete\ndata: {"type":"response.incomplete","response":{"id":"r","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[],"usage":{"input_tokens":3,"output_tokens":16}}}\n\n',
    );
    expect(parts[1]).toMatchObject({ type: 'finish', finishReason: { unified: 'length', raw: 'max_output_tokens' }, usage: { input: { total: 3 }, output: { total: 16 } } });
  });

  it('takes the output of a terminal event when no item events came', () => {
    const response = { id: 'r', status: 'completed', output: [{ type: 'message', id: 'm1', content: [{ type: 'output_text', text: 'Hi' }] }] };
    const parts = decodeStreamText(`event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', response })}\n\n`);
    expect(collectStreamParts(parts).choices[0].content).toEqual([{ type: 'text', text: 'Hi', ...own({ itemId: 'm1' }) }]);
  });

  it('reports a stream that ends before its terminal event', () => {
    const parts = decodeStreamText('event: response.created\ndata: {"type":"response.created","response":{"id":"r"}}\n\n');
    expect(parts[1]).toEqual({ type: 'error', error: expect.objectContaining({ code: 'upstream_error' }) });
  });
});
