import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { collectStreamParts } from '../../src/core/collect-stream.js';
import type { GenerateRequest } from '../../src/core/generate-request.js';
import type { GenerateResponse } from '../../src/core/generate-response.js';
// The built-in protocols, each with its recordings.
import type { UpstreamProtocol as Protocol } from './fake-protocol-upstream.js';
import type { StreamPart } from '../../src/core/stream-part.js';
import { getCodec } from '../../src/protocols/codecs.js';
import type { ResponseContext } from '../../src/protocols/protocol-codec.js';
import { createSseParser } from '../../src/sse/parse-sse.js';
import type { SseEvent } from '../../src/sse/sse-event.js';
import { FIXTURES_DIRECTORY, readFixture } from './fixtures.js';

/**
 * An upstream's answer on its way to a client, through the codecs as the gateway runs them: the
 * upstream codec decodes it, the client codec encodes it, and (to read what the client got without
 * parsing four wire formats again) the client codec's own decoder reads it back.
 */
type Json = Record<string, unknown>;

/** Every recorded non-stream answer of a protocol (errors left out). */
export function recordedAnswers(protocol: Protocol): string[] {
  return readdirSync(join(FIXTURES_DIRECTORY, protocol)).filter((name) => name.endsWith('.json') && !name.startsWith('error'));
}

export function decodeRecordedAnswer(protocol: Protocol, file: string): GenerateResponse {
  return getCodec(protocol).decodeResponse(JSON.parse(readFixture(protocol, file)));
}

export function decodeRecordedStream(protocol: Protocol, file: string): StreamPart[] {
  return decodeStreamText(protocol, readFixture(protocol, file));
}

function decodeStreamText(protocol: Protocol, text: string): StreamPart[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  parser.feed(text);
  parser.end();
  const decoder = getCodec(protocol).createStreamDecoder();
  return [...events.flatMap((event) => decoder.decode(event)), ...decoder.end()];
}

function contextFor(request: GenerateRequest): ResponseContext {
  return { requestId: 'req1', created: 1_700_000_000, model: 'm', request };
}

/** The JSON a non-stream client receives. */
export function encodeForClient(client: Protocol, response: GenerateResponse, request: GenerateRequest): Json {
  return getCodec(client).encodeResponse(response, contextFor(request)) as Json;
}

/** What a non-stream client received, read back into the core form. */
export function passThroughClient(client: Protocol, response: GenerateResponse, request: GenerateRequest): GenerateResponse {
  return getCodec(client).decodeResponse(encodeForClient(client, response, request));
}

/** What a stream client received, event by event, read back into stream parts. */
export function passStreamThroughClient(client: Protocol, parts: StreamPart[], request: GenerateRequest): StreamPart[] {
  const encoder = getCodec(client).createStreamEncoder(contextFor(request));
  const text = parts.map((part) => encoder.encode(part)).join('') + encoder.finish();
  return decodeStreamText(client, text);
}

export function collect(parts: StreamPart[]): GenerateResponse {
  return collectStreamParts(parts);
}

/**
 * The client's next request after a tool-call answer, built from the JSON it received the way
 * each SDK's users do: the assistant turn sent back as it came, then a result for every call.
 */
export function buildNextTurn(client: Protocol, answer: Json, result: string): Json {
  const question = 'Weather in Paris?';
  switch (client) {
    case 'openai-chat': {
      const message = (answer.choices as Json[])[0].message as Json;
      const calls = (message.tool_calls ?? []) as Json[];
      return {
        model: 'm',
        messages: [{ role: 'user', content: question }, message, ...calls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: result }))],
      };
    }
    case 'anthropic-messages': {
      const content = answer.content as Json[];
      const results = content.filter((block) => block.type === 'tool_use').map((block) => ({ type: 'tool_result', tool_use_id: block.id, content: result }));
      return { model: 'm', max_tokens: 1024, messages: [{ role: 'user', content: question }, { role: 'assistant', content }, { role: 'user', content: results }] };
    }
    case 'openai-responses': {
      const output = answer.output as Json[];
      const outputs = output.filter((item) => item.type === 'function_call').map((item) => ({ type: 'function_call_output', call_id: item.call_id, output: result }));
      return { model: 'm', input: [{ role: 'user', content: question }, ...output, ...outputs] };
    }
    case 'gemini': {
      const content = ((answer.candidates as Json[])[0].content ?? { role: 'model', parts: [] }) as { parts: Json[] };
      const responses = content.parts
        .filter((part) => part.functionCall)
        .map((part) => {
          const call = part.functionCall as Json;
          return { functionResponse: { ...(call.id !== undefined && { id: call.id }), name: call.name, response: { output: result } } };
        });
      return { contents: [{ role: 'user', parts: [{ text: question }] }, content, { role: 'user', parts: responses }] };
    }
  }
}

/** Usage of each protocol as its documentation writes it: 100 in (30 cache reads, 20 writes), 20 out (10 reasoning). */
export const DOCUMENTED_USAGE_ANSWERS: Record<Protocol, Json> = {
  'openai-chat': {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: 100,
      completion_tokens: 20,
      total_tokens: 120,
      prompt_tokens_details: { cached_tokens: 30, cache_write_tokens: 20 },
      completion_tokens_details: { reasoning_tokens: 10 },
    },
  },
  'anthropic-messages': {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'm',
    content: [{ type: 'text', text: 'ok' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 50, cache_read_input_tokens: 30, cache_creation_input_tokens: 20, output_tokens: 20, output_tokens_details: { thinking_tokens: 10 } },
  },
  'openai-responses': {
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    model: 'm',
    output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }],
    usage: {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 30, cache_write_tokens: 20 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 10 },
      total_tokens: 120,
    },
  },
  gemini: {
    candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }],
    // Gemini has no count of cache writes.
    usageMetadata: { promptTokenCount: 100, cachedContentTokenCount: 30, candidatesTokenCount: 10, thoughtsTokenCount: 10, totalTokenCount: 120 },
    modelVersion: 'm',
  },
};
