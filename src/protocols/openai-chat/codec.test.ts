import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collectStreamParts } from '../../core/collect-stream.js';
import { expandResponseToStreamParts } from '../../core/expand-response.js';
import type { GenerateRequest } from '../../core/generate-request.js';
import type { StreamPart } from '../../core/stream-part.js';
import type { Usage } from '../../core/usage.js';
import { decodeSseText } from '../decode-sse-text.js';
import { openAIChatCodec } from './codec.js';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/openai-chat/', import.meta.url));
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');


function decodeStream(text: string): StreamPart[] {
  return decodeSseText(text, openAIChatCodec.createStreamDecoder());
}

/** What a recorded stream says, read with plain string handling (independent of the codec). */
function expectedFromChunks(text: string) {
  const chunks = text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)));
  let content = '';
  const tools = new Map<number, { name: string; args: string; id: string }>();
  let finish: string | undefined;
  let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
  for (const chunk of chunks) {
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      content += choice.delta?.content ?? '';
      for (const call of choice.delta?.tool_calls ?? []) {
        const entry = tools.get(call.index) ?? { name: '', args: '', id: call.id };
        entry.name += call.function?.name ?? '';
        entry.args += call.function?.arguments ?? '';
        tools.set(call.index, entry);
      }
      finish = choice.finish_reason ?? finish;
    }
  }
  return { content, tools: [...tools.values()], finish, usage };
}

const sseFixtures = readdirSync(FIXTURES).filter((name) => name.endsWith('.sse'));
const jsonFixtures = readdirSync(FIXTURES).filter((name) => name.endsWith('.json') && !name.startsWith('error'));

describe('openai-chat stream decoder, over every recorded stream', () => {
  it.each(sseFixtures)('%s', (name) => {
    const text = fixture(name);
    const response = collectStreamParts(decodeStream(text));
    const expected = expectedFromChunks(text);
    const choice = response.choices[0];
    expect(choice.content.filter((part) => part.type === 'text').map((part) => (part.type === 'text' ? part.text : '')).join('')).toBe(expected.content);
    expect(choice.content.filter((part) => part.type === 'tool-call').map((part) => (part.type === 'tool-call' ? { name: part.toolName, args: part.input, id: part.toolCallId } : {}))).toEqual(
      expected.tools,
    );
    expect(choice.finishReason.raw).toBe(expected.finish);
    expect(response.usage.input.total).toBe(expected.usage?.prompt_tokens);
    expect(response.usage.output.total).toBe(expected.usage?.completion_tokens);
  });

  it('emits the finish only at the end, with the usage that follows finish_reason', () => {
    const parts = decodeStream(fixture('text-usage-stream.sse'));
    const finish = parts.filter((part) => part.type === 'finish');
    expect(finish).toHaveLength(1);
    expect(parts.at(-1)).toEqual(finish[0]);
    expect(finish[0]).toMatchObject({ finishReason: { unified: 'stop', raw: 'stop' }, usage: { input: { total: 78, cacheRead: 0, noCache: 78 }, output: { total: 9, reasoning: 0, text: 9 } } });
  });

  it('skips events it does not know, and reads a mid-stream error', () => {
    const decoder = openAIChatCodec.createStreamDecoder();
    expect(decoder.decode({ data: '{"object":"something.else"}' })).toEqual([{ type: 'start' }]);
    const [error] = decoder.decode({ data: '{"error":{"message":"overloaded","type":"server_error"}}' });
    expect(error).toMatchObject({ type: 'error', error: { message: 'overloaded', status: 502 } });
    expect(decoder.end()).toEqual([]);
  });

  it('ends the stream with an error part at a chunk that is not JSON', () => {
    const decoder = openAIChatCodec.createStreamDecoder();
    decoder.decode({ data: '{"id":"c","choices":[{"index":0,"delta":{"content":"Hi"}}]}' });
    expect(decoder.decode({ data: '{"id":"c","choices":[{"ind' })).toMatchObject([{ type: 'error', error: { status: 502, detailCode: 'upstream_invalid_event' } }]);
    expect(decoder.end()).toEqual([]);
  });

  it('is complete at a finish_reason even without [DONE], and ends with an error part without one', () => {
    const finished = openAIChatCodec.createStreamDecoder();
    finished.decode({ data: '{"id":"c","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}' });
    expect(finished.end().map((part) => part.type)).toEqual(['finish']);
    const cut = openAIChatCodec.createStreamDecoder();
    cut.decode({ data: '{"id":"c","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}' });
    expect(cut.end()).toMatchObject([{ type: 'error', error: { detailCode: 'upstream_ended_early' } }]);
    expect(openAIChatCodec.createStreamDecoder().end()).toMatchObject([{ type: 'error' }]);
  });
});

describe('openai-chat responses, over every recorded body', () => {
  it.each(jsonFixtures)('%s decodes, and survives encode → decode', (name) => {
    const body = JSON.parse(fixture(name));
    const response = openAIChatCodec.decodeResponse(body);
    expect(response.choices[0].finishReason.raw).toBe(body.choices[0].finish_reason);
    expect(response.usage.input.total).toBe(body.usage.prompt_tokens);
    const context = { requestId: 'r1', created: 1, model: 'm', request: minimalRequest() };
    const again = openAIChatCodec.decodeResponse(openAIChatCodec.encodeResponse(response, context));
    expect(again.choices).toEqual(response.choices);
    expect(usageCounts(again.usage)).toEqual(usageCounts(response.usage));
  });

  it('reads errors, keeping the upstream body for passthrough', () => {
    const text = fixture('error-404-model.json');
    const error = openAIChatCodec.decodeError(404, text);
    expect(error).toMatchObject({ code: 'not_found', status: 404, detailCode: 'model_not_found', upstream: { status: 404, body: text } });
    expect(openAIChatCodec.decodeError(500, 'plain text failure').message).toBe('plain text failure');
    expect(openAIChatCodec.decodeError(400, '{"error":"bad thing"}').message).toBe('bad thing');
  });
});

/** Counts a client sees: OpenAI reports an unknown count as 0. */
function usageCounts(usage: Usage) {
  return {
    input: usage.input.total ?? 0,
    cacheRead: usage.input.cacheRead ?? 0,
    output: usage.output.total ?? 0,
    reasoning: usage.output.reasoning ?? 0,
  };
}

function minimalRequest(extension: Record<string, unknown> = {}): GenerateRequest {
  return { model: 'm', system: [], messages: [], tools: [], stream: true, extensions: { 'openai-chat': extension } };
}

describe('openai-chat stream encoder', () => {
  it('writes the canonical sequence for a tool call (docs/protocols.md §8)', () => {
    const encoder = openAIChatCodec.createStreamEncoder({ requestId: 'x', created: 1, model: 'm', request: minimalRequest({ include_usage: true }) });
    const parts: StreamPart[] = [
      { type: 'start' },
      { type: 'tool-input-start', id: 'call_1', toolName: 'f' },
      { type: 'tool-input-delta', id: 'call_1', delta: '{"a":1}' },
      { type: 'tool-input-end', id: 'call_1' },
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'f', input: '{"a":1}' },
      { type: 'finish', finishReason: { unified: 'tool-calls' }, usage: { input: { total: 10 }, output: { total: 5 } } },
    ];
    const text = parts.map((part) => encoder.encode(part)).join('') + encoder.finish();
    const head = '"id":"chatcmpl-x","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":null';
    expect(text).toBe(
      [
        `data: {${head},"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}`,
        `data: {${head},"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]},"logprobs":null,"finish_reason":null}],"usage":null}`,
        `data: {${head},"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"a\\":1}"}}]},"logprobs":null,"finish_reason":null}],"usage":null}`,
        `data: {${head},"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}],"usage":null}`,
        `data: {${head},"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":0}}}`,
        'data: [DONE]',
      ].join('\n\n') + '\n\n',
    );
  });

  it('writes text and reasoning deltas byte for byte as the chunk objects would stringify', () => {
    const context = { requestId: 'q"1', created: 7, model: 'm\u2028"x', request: minimalRequest() };
    const encoder = openAIChatCodec.createStreamEncoder(context);
    const text = 'say "hi"\n\ttab \\ é 😀 \u2028 \u0000';
    const wire = [
      encoder.encode({ type: 'start' }),
      encoder.encode({ type: 'reasoning-delta', id: 'r', delta: text }),
      encoder.encode({ type: 'text-delta', id: 't', delta: text, choice: 2 }),
    ].join('');
    const chunk = (choice: object) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-q"1', object: 'chat.completion.chunk', created: 7, model: 'm\u2028"x', system_fingerprint: null, choices: [choice] })}\n\n`;
    const role = (index: number) => chunk({ index, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null });
    expect(wire).toBe(
      role(0) +
        chunk({ index: 0, delta: { reasoning_content: text }, logprobs: null, finish_reason: null }) +
        role(2) +
        chunk({ index: 2, delta: { content: text }, logprobs: null, finish_reason: null }),
    );
  });

  it.each(sseFixtures)('re-encodes %s into a stream that decodes to the same response', (name) => {
    const original = collectStreamParts(decodeStream(fixture(name)));
    const encoder = openAIChatCodec.createStreamEncoder({ requestId: 'x', created: 1, model: 'm', request: minimalRequest({ include_usage: true }) });
    const parts = expandResponseToStreamParts(original);
    const text = parts.map((part) => encoder.encode(part)).join('') + encoder.finish();
    const again = collectStreamParts(decodeStream(text));
    expect(again.choices).toEqual(original.choices);
    expect(usageCounts(again.usage)).toEqual(usageCounts(original.usage));
  });
});
