import Anthropic from '@anthropic-ai/sdk';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectStreamParts } from '../../core/collect-stream.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { GenerateResponse } from '../../core/generate-response.js';
import type { StreamPart } from '../../core/stream-part.js';
import type { Usage } from '../../core/usage.js';
import { parseSseEvents } from '../../sse/parse-sse.js';
import type { ResponseContext } from '../protocol-codec.js';
import { createAnthropicMessagesStreamDecoder } from './decode-stream.js';
import { encodeAnthropicMessagesResponse } from './encode-response.js';
import { createAnthropicMessagesStreamEncoder } from './encode-stream.js';
import { decodeSseText } from '../decode-sse-text.js';

const FIXTURES = new URL('../../../test/fixtures/anthropic-messages/', import.meta.url);

function contextFor(requestId: string, model: string): ResponseContext {
  return { requestId, created: 0, model, request: { model, system: [], tools: [], stream: true, extensions: {} } };
}
const CONTEXT = contextFor('req_1', 'claude-sonnet-4-5');

/** Runs parts through a fresh encoder, including its closing `finish()`: the SSE text written. */
function encodeAll(parts: StreamPart[], context = CONTEXT): string {
  const encoder = createAnthropicMessagesStreamEncoder(context);
  let text = '';
  for (const part of parts) text += encoder.encode(part);
  return text + encoder.finish();
}

/** The events as [name, data] pairs; also checks that every record's name is its data.type. */
function eventsOf(text: string): Array<[string, unknown]> {
  return parseSseEvents(text).map((event) => {
    if (event.unframed) throw new Error(`Not an SSE record: ${event.data}`);
    const data = JSON.parse(event.data) as { type: string };
    expect(event.event).toBe(data.type);
    return [data.type, data];
  });
}

function decodeSse(text: string | Uint8Array): StreamPart[] {
  return decodeSseText(text, createAnthropicMessagesStreamDecoder());
}

/**
 * What the official SDK's MessageStream makes of the SSE text, served by a fetch that never leaves
 * the process (`parsed_output` is the SDK's own addition for structured outputs).
 */
async function finalMessageFromSdk(sse: string): Promise<Omit<Anthropic.Message, 'parsed_output'>> {
  const client = new Anthropic({
    apiKey: 'test-key',
    baseURL: 'http://gateway.test',
    maxRetries: 0,
    fetch: async () => new Response(sse, { headers: { 'content-type': 'text/event-stream' } }),
  });
  const stream = client.messages.stream({ model: 'claude-haiku-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] });
  const { parsed_output: _parsedOutput, ...message } = await stream.finalMessage();
  return message;
}

const usage = (input: number, output: number): Usage => ({ input: { total: input, noCache: input }, output: { total: output } });

describe('createAnthropicMessagesStreamEncoder', () => {
  it('writes a text stream as the exact Anthropic event records', () => {
    const sse = encodeAll([
      { type: 'start', usage: usage(10, 0) },
      { type: 'text-start', id: 'text-0' },
      { type: 'text-delta', id: 'text-0', delta: 'Hi' },
      { type: 'text-end', id: 'text-0' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(10, 1) },
    ]);
    expect(sse).toBe(
      'event: message_start\n' +
        'data: {"type":"message_start","message":{"id":"msg_req_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}\n\n' +
        'event: content_block_start\n' +
        'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
        'event: content_block_delta\n' +
        'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n' +
        'event: content_block_stop\n' +
        'data: {"type":"content_block_stop","index":0}\n\n' +
        'event: message_delta\n' +
        'data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":10,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}\n\n' +
        'event: message_stop\n' +
        'data: {"type":"message_stop"}\n\n',
    );
  });

  it('serializes OpenAI-style interleaved text and tool calls into one block at a time', () => {
    // An OpenAI upstream may stream a second call's arguments before the first call's are complete.
    const sse = encodeAll([
      { type: 'start' },
      { type: 'text-start', id: 'text-0' },
      { type: 'text-delta', id: 'text-0', delta: 'Checking.' },
      { type: 'tool-input-start', id: 'call_1', toolName: 'get_weather' },
      { type: 'tool-input-delta', id: 'call_1', delta: '{"city":' },
      { type: 'tool-input-start', id: 'call_2', toolName: 'get_time' },
      { type: 'tool-input-delta', id: 'call_2', delta: '{"zone":"PT"}' },
      { type: 'tool-input-delta', id: 'call_1', delta: '"Paris"}' },
      { type: 'text-end', id: 'text-0' },
      { type: 'tool-input-end', id: 'call_1' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: '{"city":"Paris"}' },
      { type: 'tool-input-end', id: 'call_2' },
      { type: 'tool-call', toolCallId: 'call_2', toolName: 'get_time', input: '{"zone":"PT"}' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage(20, 9) },
    ]);
    expect(eventsOf(sse).slice(1)).toEqual([
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Checking.' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'call_1', name: 'get_weather', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 1 }],
      ['content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'call_2', name: 'get_time', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"zone":"PT"}' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 2 }],
      [
        'message_delta',
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { input_tokens: 20, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      ],
      ['message_stop', { type: 'message_stop' }],
    ]);
  });

  it('writes thinking with its signature, redacted thinking, and a whole call that came without input parts', () => {
    const sse = encodeAll([
      { type: 'start' },
      { type: 'reasoning-start', id: 'r0' },
      { type: 'reasoning-delta', id: 'r0', delta: 'Hmm.' },
      { type: 'reasoning-end', id: 'r0', signature: 'sig-1' },
      { type: 'reasoning-start', id: 'r1', redactedData: 'opaque' },
      { type: 'reasoning-end', id: 'r1' },
      { type: 'tool-call', toolCallId: 'call_g', toolName: 'lookup', input: '{"q":1}' },
      { type: 'finish', finishReason: { unified: 'tool-calls' }, usage: usage(5, 7) },
    ]);
    expect(eventsOf(sse).slice(1, -2).map(([, data]) => data)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-1' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'opaque' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'call_g', name: 'lookup', input: {} } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"q":1}' } },
      { type: 'content_block_stop', index: 2 },
    ]);
  });

  it('holds text back while a thinking block waits for its signature', () => {
    const sse = encodeAll([
      { type: 'start' },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'Plan.' },
      { type: 'text-delta', id: 't', delta: 'Answer.' },
      { type: 'reasoning-end', id: 'r', signature: 'sig' },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop' }, usage: usage(1, 2) },
    ]);
    expect(eventsOf(sse).slice(1, -2).map(([, data]) => data)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Plan.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Answer.' } },
      { type: 'content_block_stop', index: 1 },
    ]);
  });

  it('lets every waiting tool out, one block at a time, when a stream ends with tools still open', async () => {
    const sse = encodeAll([
      { type: 'start' },
      { type: 'tool-input-start', id: 'call_1', toolName: 'a' },
      { type: 'tool-input-start', id: 'call_2', toolName: 'b' },
      { type: 'tool-input-delta', id: 'call_2', delta: '{"x":2}' },
      { type: 'tool-input-delta', id: 'call_1', delta: '{"x":1}' },
    ]);
    const message = await finalMessageFromSdk(sse);
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'a', input: { x: 1 } },
      { type: 'tool_use', id: 'call_2', name: 'b', input: { x: 2 } },
    ]);
  });

  it('closes what is missing at finish() so MessageStream still gets message_stop', async () => {
    const sse = encodeAll([
      { type: 'start', usage: usage(3, 0) },
      { type: 'text-delta', id: 't', delta: 'cut sh' },
    ]);
    expect(eventsOf(sse).map(([name]) => name)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const message = await finalMessageFromSdk(sse);
    expect(message.content).toEqual([{ type: 'text', text: 'cut sh' }]);
  });

  it('writes an error as an error event, after which nothing more is written', async () => {
    const encoder = createAnthropicMessagesStreamEncoder(CONTEXT);
    const sse =
      encoder.encode({ type: 'start' }) +
      encoder.encode({ type: 'error', error: new GatewayError('overloaded', 'The upstream is overloaded.') }) +
      encoder.encode({ type: 'text-delta', id: 't', delta: 'late' }) +
      encoder.finish();
    expect(eventsOf(sse).slice(1)).toEqual([['error', { type: 'error', error: { type: 'overloaded_error', message: 'The upstream is overloaded.' } }]]);
    await expect(finalMessageFromSdk(sse)).rejects.toThrow(/overloaded_error/);
  });

  it('answers keepAlive with a ping event and ignores the parts of other choices', () => {
    const encoder = createAnthropicMessagesStreamEncoder(CONTEXT);
    expect(encoder.keepAlive()).toBe('event: ping\ndata: {"type":"ping"}\n\n');
    encoder.encode({ type: 'start' });
    expect(encoder.encode({ type: 'text-delta', id: 't', delta: 'other choice', choice: 1 })).toBe('');
  });

  it('is read by the SDK MessageStream into the message the non-stream encoder writes', async () => {
    const parts: StreamPart[] = [
      { type: 'start', usage: usage(12, 0) },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'Weather needs a tool.' },
      { type: 'reasoning-end', id: 'r', signature: 'sig' },
      { type: 'text-delta', id: 't', delta: 'Let me look.' },
      { type: 'tool-input-start', id: 'toolu_1', toolName: 'get_weather' },
      { type: 'tool-input-delta', id: 'toolu_1', delta: '{"city":"Paris"}' },
      { type: 'tool-input-end', id: 'toolu_1' },
      { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'get_weather', input: '{"city":"Paris"}' },
      { type: 'finish', finishReason: { unified: 'tool-calls' }, usage: { input: { total: 12, noCache: 2, cacheRead: 10 }, output: { total: 30, reasoning: 8 } } },
    ];
    const message = await finalMessageFromSdk(encodeAll(parts));
    expect(message).toEqual(sdkView(encodeAnthropicMessagesResponse(collectStreamParts(parts), CONTEXT)));
  });

  describe.each(readdirSync(FIXTURES).filter((name) => name.endsWith('.sse')))('recorded stream %s', (name) => {
    const original = decodeSse(readFileSync(new URL(name, FIXTURES)));
    const collected = collectStreamParts(original);
    const context = contextFor(String(collected.id).slice('msg_'.length), String(collected.model));
    const sse = encodeAll(original, context);

    it('decodes again, after the encoder, into the same response', () => {
      expect(withoutRawUsage(collectStreamParts(decodeSse(sse)))).toEqual(withoutRawUsage(collected));
    });

    it('is accepted by the SDK MessageStream', async () => {
      expect(await finalMessageFromSdk(sse)).toEqual(sdkView(encodeAnthropicMessagesResponse(collected, context)));
    });
  });
});

function withoutRawUsage(response: GenerateResponse): GenerateResponse {
  return { ...response, usage: { input: response.usage.input, output: response.usage.output } };
}

/** The non-stream message as MessageStream builds it: stream text blocks start without `citations`. */
function sdkView(message: Record<string, unknown>): Record<string, unknown> {
  const content = (message.content as Array<Record<string, unknown>>).map(({ citations, ...block }) =>
    block.type === 'text' && citations === null ? block : { ...block, ...(citations !== undefined && { citations }) },
  );
  return { ...message, content };
}
