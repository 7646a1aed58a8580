import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { collectStreamParts } from '../../core/collect-stream.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { GenerateResponse } from '../../core/generate-response.js';
import type { StreamPart } from '../../core/stream-part.js';
import { createSseParser, parseSseEvents } from '../../sse/parse-sse.js';
import type { ResponseContext } from '../protocol-codec.js';
import { openAIChatCodec } from '../openai-chat/codec.js';
import type { JsonObject } from '../read-fields.js';
import { openAIResponsesCodec } from './codec.js';

const FIXTURES = new URL('../../../test/fixtures/openai-responses/', import.meta.url);
const context: ResponseContext = {
  requestId: 'req7',
  created: 1_760_000_000,
  model: 'gateway-model',
  request: openAIResponsesCodec.decodeRequest({ model: 'gateway-model', input: 'Hi' }, {}).request,
};
const usage = { input: { total: 12, cacheRead: 2 }, output: { total: 7, reasoning: 3 } };

/** The wire text a client receives for `parts`. */
function encodeParts(parts: StreamPart[], streamContext = context): string {
  const encoder = openAIResponsesCodec.createStreamEncoder(streamContext);
  return parts.map((part) => encoder.encode(part)).join('') + encoder.finish();
}
const eventsOf = (wire: string) => parseSseEvents(wire).map(({ event, data }) => ({ event, data: JSON.parse(data) as JsonObject }));

function decodeSse(text: string): StreamPart[] {
  const decoder = openAIResponsesCodec.createStreamDecoder();
  const parts: StreamPart[] = [];
  const parser = createSseParser((event) => parts.push(...decoder.decode(event)));
  parser.feed(text);
  parser.end();
  return [...parts, ...decoder.end()];
}

/** A client of the official SDK whose every request is answered with `body`, in-process. */
function clientAnswering(body: string, contentType = 'text/event-stream'): OpenAI {
  return new OpenAI({ apiKey: 'test-key', baseURL: 'http://gateway.test/v1', fetch: async () => new Response(body, { headers: { 'content-type': contentType } }) });
}
const streamThroughSdk = (wire: string) => clientAnswering(wire).responses.stream({ model: 'gateway-model', input: 'Hi' }).finalResponse();

const ITEM_EVENT_TYPES: Record<string, string> = {
  'response.content_part.added': 'message',
  'response.content_part.done': 'message',
  'response.output_text.delta': 'message',
  'response.output_text.done': 'message',
  'response.function_call_arguments.delta': 'function_call',
  'response.function_call_arguments.done': 'function_call',
  'response.custom_tool_call_input.delta': 'custom_tool_call',
  'response.custom_tool_call_input.done': 'custom_tool_call',
  'response.reasoning_summary_part.added': 'reasoning',
  'response.reasoning_summary_part.done': 'reasoning',
  'response.reasoning_summary_text.delta': 'reasoning',
  'response.reasoning_summary_text.done': 'reasoning',
};
const LIFECYCLE = ['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done', 'error'];
const TERMINAL = ['response.completed', 'response.incomplete', 'response.failed'];

/**
 * The checks of openai-node 7.x `ResponseStream` (docs/protocols.md §3.4), stricter than the 6.x SDK
 * installed here: known types only, response.created first, append-only output indexes, ids that
 * match their item, parts opened before their deltas, one item at a time, one terminal event last.
 */
function assertStrictResponsesStream(wire: string): void {
  const events = eventsOf(wire);
  const output: JsonObject[] = [];
  let openIndex: number | undefined;
  expect(events[0].data.type).toBe('response.created');
  events.forEach(({ event, data }, position) => {
    const type = String(data.type);
    expect(event).toBe(type);
    expect(data.sequence_number).toBe(position);
    expect([...LIFECYCLE, ...TERMINAL, ...Object.keys(ITEM_EVENT_TYPES)]).toContain(type);
    if (TERMINAL.includes(type)) {
      expect(position).toBe(events.length - 1);
      // The terminal response replaces the client's snapshot: the same items, in the same order.
      // (Its items may know more: a reasoning signature that came late, a cut item's text.)
      const ids = (items: JsonObject[]) => items.map((item) => [item.type, item.id]);
      expect(ids((data.response as JsonObject).output as JsonObject[])).toEqual(ids(output));
    } else if (type === 'response.output_item.added') {
      const item = data.item as JsonObject;
      expect(openIndex).toBeUndefined();
      expect(data.output_index).toBe(output.length);
      expect(item.id).toBeTruthy();
      if (item.type === 'function_call') expect(item.call_id).toBeTruthy();
      openIndex = output.length;
      output.push(structuredClone(item));
    } else if (type === 'response.output_item.done') {
      const item = data.item as JsonObject;
      const previous = output[data.output_index as number];
      expect(data.output_index).toBe(openIndex);
      expect([item.type, item.id, item.call_id]).toEqual([previous.type, previous.id, previous.call_id]);
      output[data.output_index as number] = item;
      openIndex = undefined;
    } else if (type in ITEM_EVENT_TYPES) {
      const item = output[data.output_index as number];
      expect(data.output_index).toBe(openIndex);
      expect([item.type, data.item_id]).toEqual([ITEM_EVENT_TYPES[type], item.id]);
      if (type === 'response.content_part.added') {
        expect(data.content_index).toBe((item.content as unknown[]).length);
        (item.content as unknown[]).push(data.part);
      }
      if (type === 'response.output_text.delta') expect((item.content as unknown[])[data.content_index as number]).toBeDefined();
      if (type === 'response.reasoning_summary_part.added') {
        expect(data.summary_index).toBe((item.summary as unknown[]).length);
        (item.summary as unknown[]).push(data.part);
      }
      if (type === 'response.reasoning_summary_text.delta') expect((item.summary as unknown[])[data.summary_index as number]).toBeDefined();
    }
  });
  expect(TERMINAL).toContain(events.at(-1)!.data.type);
}

const TEXT_PARTS: StreamPart[] = [
  { type: 'start' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hello' },
  { type: 'text-delta', id: 't', delta: ' world' },
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop' }, usage },
];
const TOOL_PARTS: StreamPart[] = [
  { type: 'start' },
  { type: 'tool-input-start', id: 'call_1', toolName: 'get_weather' },
  { type: 'tool-input-delta', id: 'call_1', delta: '{"city":' },
  { type: 'tool-input-delta', id: 'call_1', delta: '"Paris"}' },
  { type: 'tool-input-end', id: 'call_1' },
  { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: '{"city":"Paris"}' },
  { type: 'finish', finishReason: { unified: 'tool-calls' }, usage },
];
const REASONING_PARTS: StreamPart[] = [
  { type: 'start' },
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'Think ' },
  { type: 'reasoning-delta', id: 'r', delta: 'first.' },
  { type: 'reasoning-end', id: 'r', signature: 'sig' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: '42' },
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop' }, usage },
];

describe('createOpenAIResponsesStreamEncoder', () => {
  it('writes the text event sequence of docs/protocols.md §3.4', () => {
    const events = eventsOf(encodeParts(TEXT_PARTS));
    const reference = { item_id: 'msg_req7_0', output_index: 0 };
    const part = (text: string) => ({ type: 'output_text', annotations: [], logprobs: [], text });
    expect(events.slice(2, -1).map(({ data }) => data)).toEqual([
      { type: 'response.output_item.added', output_index: 0, item: { type: 'message', id: 'msg_req7_0', status: 'in_progress', role: 'assistant', content: [] }, sequence_number: 2 },
      { type: 'response.content_part.added', ...reference, content_index: 0, part: part(''), sequence_number: 3 },
      { type: 'response.output_text.delta', ...reference, content_index: 0, delta: 'Hello', logprobs: [], sequence_number: 4 },
      { type: 'response.output_text.delta', ...reference, content_index: 0, delta: ' world', logprobs: [], sequence_number: 5 },
      { type: 'response.output_text.done', ...reference, content_index: 0, text: 'Hello world', logprobs: [], sequence_number: 6 },
      { type: 'response.content_part.done', ...reference, content_index: 0, part: part('Hello world'), sequence_number: 7 },
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: { type: 'message', id: 'msg_req7_0', status: 'completed', role: 'assistant', content: [part('Hello world')] },
        sequence_number: 8,
      },
    ]);
    const [created, inProgress, completed] = [events[0].data, events[1].data, events.at(-1)!.data];
    expect([created.type, inProgress.type, completed.type]).toEqual(['response.created', 'response.in_progress', 'response.completed']);
    expect(created.response).toMatchObject({ id: 'resp_req7', object: 'response', status: 'in_progress', output: [], usage: null, model: 'gateway-model' });
    // The terminal response is the same object encodeResponse writes for the collected parts.
    expect(completed.response).toEqual(openAIResponsesCodec.encodeResponse(collectStreamParts(TEXT_PARTS), context));
    assertStrictResponsesStream(encodeParts(TEXT_PARTS));
  });

  it('writes the delta events, built from strings, as the JSON of their fields in order', () => {
    // Text that JSON must escape, in the deltas and in the item ids (which hold the request id).
    const wire = encodeParts(
      [
        { type: 'reasoning-delta', id: 'r', delta: 'a"\n' },
        { type: 'reasoning-delta', id: 'r', delta: '\u2028\ud800' },
        { type: 'text-delta', id: 't', delta: 'é😀' },
        { type: 'text-end', id: 't' },
        { type: 'text-delta', id: 't2', delta: '</b>\\' },
        { type: 'tool-input-start', id: 'c', toolName: 'f' },
        { type: 'tool-input-delta', id: 'c', delta: '{"a":' },
        { type: 'tool-input-delta', id: 'c', delta: '"\t"}' },
      ],
      { ...context, requestId: 'req"7' },
    );
    const reasoning = { item_id: 'rs_req"7_0', output_index: 0 };
    const message = { item_id: 'msg_req"7_1', output_index: 1 };
    const call = { item_id: 'fc_req"7_2', output_index: 2 };
    const records = [
      { type: 'response.reasoning_summary_text.delta', ...reasoning, summary_index: 0, delta: 'a"\n', sequence_number: 4 },
      { type: 'response.reasoning_summary_text.delta', ...reasoning, summary_index: 0, delta: '\u2028\ud800', sequence_number: 5 },
      { type: 'response.output_text.delta', ...message, content_index: 0, delta: 'é😀', logprobs: [], sequence_number: 11 },
      { type: 'response.output_text.delta', ...message, content_index: 1, delta: '</b>\\', logprobs: [], sequence_number: 15 },
      { type: 'response.function_call_arguments.delta', ...call, delta: '{"a":', sequence_number: 20 },
      { type: 'response.function_call_arguments.delta', ...call, delta: '"\t"}', sequence_number: 21 },
    ].map((fields) => `event: ${fields.type}\ndata: ${JSON.stringify(fields)}\n\n`);
    for (const record of records) expect(wire).toContain(record);
    expect(parseSseEvents(wire).filter(({ event }) => event!.endsWith('.delta'))).toHaveLength(records.length);
    assertStrictResponsesStream(wire);
  });

  it('is accepted by the SDK stream helper: text', async () => {
    const final = await streamThroughSdk(encodeParts(TEXT_PARTS));
    expect(final.output_text).toBe('Hello world');
    expect(final.usage).toEqual({ input_tokens: 12, input_tokens_details: { cached_tokens: 2, cache_write_tokens: 0 }, output_tokens: 7, output_tokens_details: { reasoning_tokens: 3 }, total_tokens: 19 });
  });

  it('is accepted by the SDK stream helper: a function call', async () => {
    assertStrictResponsesStream(encodeParts(TOOL_PARTS));
    const final = await streamThroughSdk(encodeParts(TOOL_PARTS));
    expect(final.output).toEqual([
      { type: 'function_call', id: 'fc_req7_0', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed', parsed_arguments: null },
    ]);
    expect(final.usage?.total_tokens).toBe(19);
  });

  it('is accepted by the SDK stream helper: reasoning then text', async () => {
    assertStrictResponsesStream(encodeParts(REASONING_PARTS));
    const final = await streamThroughSdk(encodeParts(REASONING_PARTS));
    expect(final.output_text).toBe('42');
    expect(final.output[0]).toMatchObject({ type: 'reasoning', id: 'rs_req7_0', summary: [{ type: 'summary_text', text: 'Think first.' }] });
    expect((final.output[0] as { encrypted_content?: string }).encrypted_content).toMatch(/^switchyard\.reasoning\.v1:/);
  });

  it("sends a call of the client's custom tool (Codex's exec, translated as a function of {input}) as a custom_tool_call", async () => {
    const exec = { type: 'custom', name: 'exec', description: 'Run JavaScript' };
    const customContext = { ...context, request: openAIResponsesCodec.decodeRequest({ model: 'gateway-model', input: 'Hi', tools: [exec] }, {}).request };
    const parts: StreamPart[] = [
      { type: 'start' },
      { type: 'tool-input-start', id: 'toolu_1', toolName: 'exec' },
      { type: 'tool-input-delta', id: 'toolu_1', delta: '{"input":"text(' },
      { type: 'tool-input-delta', id: 'toolu_1', delta: '1)"}' },
      { type: 'tool-input-end', id: 'toolu_1' },
      { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'exec', input: '{"input":"text(1)"}' },
      { type: 'finish', finishReason: { unified: 'tool-calls' }, usage },
    ];
    const wire = encodeParts(parts, customContext);
    assertStrictResponsesStream(wire);
    const item = { type: 'custom_tool_call', id: 'ctc_req7_0', call_id: 'toolu_1', name: 'exec' };
    expect(eventsOf(wire).slice(2, -1).map((event) => event.data)).toEqual([
      { type: 'response.output_item.added', output_index: 0, item: { ...item, input: '', status: 'in_progress' }, sequence_number: 2 },
      { type: 'response.custom_tool_call_input.delta', item_id: 'ctc_req7_0', output_index: 0, delta: 'text(1)', sequence_number: 3 },
      { type: 'response.custom_tool_call_input.done', item_id: 'ctc_req7_0', output_index: 0, input: 'text(1)', sequence_number: 4 },
      { type: 'response.output_item.done', output_index: 0, item: { ...item, input: 'text(1)', status: 'completed' }, sequence_number: 5 },
    ]);
    const final = await streamThroughSdk(wire);
    expect(final.output).toEqual([{ ...item, input: 'text(1)', status: 'completed' }]);
    const response: GenerateResponse = {
      choices: [{ index: 0, content: [{ type: 'tool-call', toolCallId: 'toolu_1', toolName: 'exec', input: '{"input":"text(1)"}' }], finishReason: { unified: 'tool-calls' } }],
      usage,
    };
    expect((openAIResponsesCodec.encodeResponse(response, customContext) as { output: unknown }).output).toEqual([{ ...item, input: 'text(1)', status: 'completed' }]);
  });

  it('never interleaves items: parallel calls streamed side by side are written one after the other', async () => {
    // What a Chat upstream gives: both calls stream at once and close only at the finish.
    const parts: StreamPart[] = [
      { type: 'start' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Checking.' },
      { type: 'tool-input-start', id: 'a', toolName: 'f' },
      { type: 'tool-input-delta', id: 'a', delta: '{"x":' },
      { type: 'tool-input-start', id: 'b', toolName: 'g' },
      { type: 'tool-input-delta', id: 'b', delta: '{"y":2}' },
      { type: 'tool-input-delta', id: 'a', delta: '1}' },
      { type: 'text-delta', id: 't', delta: ' More.' },
      { type: 'tool-input-end', id: 'a' },
      { type: 'tool-call', toolCallId: 'a', toolName: 'f', input: '{"x":1}' },
      { type: 'tool-input-end', id: 'b' },
      { type: 'tool-call', toolCallId: 'b', toolName: 'g', input: '{"y":2}' },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'tool-calls' }, usage },
    ];
    const wire = encodeParts(parts);
    assertStrictResponsesStream(wire);
    const final = await streamThroughSdk(wire);
    expect(final.output.map((item) => (item.type === 'message' ? ['message', final.output_text] : [item.type, 'arguments' in item ? item.arguments : '']))).toEqual([
      ['message', 'Checking. More.'],
      ['function_call', '{"x":1}'],
      ['function_call', '{"y":2}'],
      ['message', 'Checking. More.'],
    ]);
    expect(collectStreamParts(decodeSse(wire)).choices[0].content.map((part) => (part.type === 'text' ? part.text : part.type))).toEqual([
      'Checking.',
      'tool-call',
      'tool-call',
      ' More.',
    ]);
  });

  it('puts reasoning metadata that arrives after its item was cut into the final response', () => {
    const wire = encodeParts([
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'Hmm' },
      { type: 'text-delta', id: 't', delta: 'Answer' },
      { type: 'reasoning-end', id: 'r', signature: 'late-signature' },
      { type: 'finish', finishReason: { unified: 'stop' }, usage },
    ]);
    assertStrictResponsesStream(wire);
    const final = eventsOf(wire).at(-1)!.data.response as JsonObject;
    const reasoning = (final.output as JsonObject[])[0];
    const restored = openAIResponsesCodec.decodeRequest({ model: 'm', input: [reasoning] }, {}).request.messages[0].content[0];
    expect(restored).toMatchObject({ type: 'reasoning', text: 'Hmm', signature: 'late-signature' });
  });

  it('writes images as image_generation_call items; other files have no Responses item', async () => {
    const wire = encodeParts([
      { type: 'file', mediaType: 'image/png', base64: 'iVBOR' },
      { type: 'file', mediaType: 'audio/wav', base64: 'UklGR' },
      { type: 'finish', finishReason: { unified: 'stop' }, usage },
    ]);
    assertStrictResponsesStream(wire);
    const final = await streamThroughSdk(wire);
    expect(final.output).toEqual([{ type: 'image_generation_call', id: 'ig_req7_0', status: 'completed', result: 'iVBOR', output_format: 'png' }]);
  });

  it('serves a Chat upstream’s parallel tool calls, which stream side by side', async () => {
    const recorded = readFileSync(new URL('../openai-chat/parallel-tool-calls-stream.sse', FIXTURES));
    const decoder = openAIChatCodec.createStreamDecoder();
    const parts: StreamPart[] = [];
    const parser = createSseParser((event) => parts.push(...decoder.decode(event)));
    parser.feed(recorded);
    parser.end();
    parts.push(...decoder.end());
    const wire = encodeParts(parts);
    assertStrictResponsesStream(wire);
    const final = await streamThroughSdk(wire);
    const calls = collectStreamParts(parts).choices[0].content;
    expect(final.output.map((item) => (item.type === 'function_call' ? [item.call_id, item.name, item.arguments] : item.type))).toEqual(
      calls.map((part) => (part.type === 'tool-call' ? [part.toolCallId, part.toolName, part.input] : part.type)),
    );
    expect(calls).toHaveLength(2);
  });

  it('writes an error part as `error` then response.failed', async () => {
    const error = new GatewayError('rate_limit', 'Too many requests.');
    const wire = encodeParts([{ type: 'start' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Part' }, { type: 'error', error }]);
    assertStrictResponsesStream(wire);
    const events = eventsOf(wire);
    expect(events.slice(-2).map(({ data }) => data)).toEqual([
      { type: 'error', code: 'rate_limit_exceeded', message: 'Too many requests.', param: null, sequence_number: 5 },
      expect.objectContaining({ type: 'response.failed', sequence_number: 6 }),
    ]);
    expect(events.at(-1)!.data.response).toMatchObject({
      status: 'failed',
      error: { code: 'rate_limit_exceeded', message: 'Too many requests.' },
      output: [{ type: 'message', id: 'msg_req7_0', status: 'incomplete', content: [{ type: 'output_text', text: 'Part' }] }],
    });
    // The helper rejects: openai-node 6.x with the `error` event itself, 7.x with an APIError.
    await expect(streamThroughSdk(wire)).rejects.toMatchObject({ message: 'Too many requests.' });
  });

  it('writes a length finish as response.incomplete', () => {
    const wire = encodeParts([{ type: 'text-delta', id: 't', delta: 'Cut' }, { type: 'finish', finishReason: { unified: 'length' }, usage }]);
    assertStrictResponsesStream(wire);
    expect(eventsOf(wire).at(-1)!.data).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } });
  });

  it('completes a stream that ended without a finish part', () => {
    const wire = encodeParts([{ type: 'tool-input-start', id: 'a', toolName: 'f' }, { type: 'tool-input-delta', id: 'a', delta: '{}' }]);
    assertStrictResponsesStream(wire);
    expect(eventsOf(wire).at(-1)!.data).toMatchObject({ type: 'response.completed', response: { output: [{ type: 'function_call', arguments: '{}' }] } });
  });

  it('keeps alive with an SSE comment and ignores other choices', () => {
    const encoder = openAIResponsesCodec.createStreamEncoder(context);
    expect(encoder.keepAlive()).toBe(': keep-alive\n\n');
    encoder.encode({ type: 'start' });
    expect(encoder.encode({ type: 'text-delta', id: 't', delta: 'other', choice: 1 })).toBe('');
  });

  const RECORDED = ['text-stream.sse', 'tool-call-stream.sse', 'reasoning-summary-tool-call-stream.sse', 'cached-tokens-stream.sse', 'web-search-stream.sse', 'image-generation-stream.sse', 'error-stream.sse'];

  it('round-trips every recorded stream: decode → encode → decode keeps the content, and encoding is stable', () => {
    // A count the recording lacks (cache writes, before OpenAI reported them) is written as 0: the SDKs require it.
    const input = (usage: GenerateResponse['usage']) => Object.assign({}, usage.input, { cacheWrite: usage.input.cacheWrite ?? 0 });
    const withoutIds = (response: GenerateResponse) =>
      JSON.parse(JSON.stringify({ ...response, id: undefined, model: undefined, usage: { ...response.usage, input: input(response.usage), raw: undefined } }, (key, value) => (key === 'itemId' || key === 'phase' ? undefined : value)));
    for (const name of RECORDED) {
      const parts = decodeSse(readFileSync(new URL(name, FIXTURES), 'utf8'));
      const wire = encodeParts(parts);
      assertStrictResponsesStream(wire);
      const again = decodeSse(wire);
      expect(withoutIds(collectStreamParts(again)), name).toEqual(withoutIds(collectStreamParts(parts)));
      expect(encodeParts(again), name).toBe(wire);
    }
  });

  it('gives the SDK stream helper the same text as the recorded streams', async () => {
    for (const name of RECORDED.filter((entry) => entry !== 'error-stream.sse')) {
      const parts = decodeSse(readFileSync(new URL(name, FIXTURES), 'utf8'));
      const text = collectStreamParts(parts).choices[0].content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      expect((await streamThroughSdk(encodeParts(parts))).output_text, name).toBe(text);
    }
  });
});
