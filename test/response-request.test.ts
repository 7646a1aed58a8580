import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../src/core/generate-request.js';
import type { UpstreamProtocol as Protocol } from './helpers/fake-protocol-upstream.js';
import type { StreamPart } from '../src/core/stream-part.js';
import { getCodec } from '../src/protocols/codecs.js';
import { requestWithoutConversation, type ResponseContext, type ResponseRequest } from '../src/protocols/protocol-codec.js';
import { FIXTURES_DIRECTORY } from './helpers/fixtures.js';
import { decodeRecordedAnswer, decodeRecordedStream, recordedAnswers } from './helpers/response-round-trip.js';
import { decodeClientRequest } from './helpers/translate-request.js';

// What a response context keeps of the request (ProtocolCodec.responseRequestOf) is held by every
// open stream. A codec may leave out what its responses never read, and only that: every recorded
// answer, non-stream and stream, must reach its client byte for byte as it would with everything
// but the conversation.

const PROTOCOLS: Protocol[] = ['openai-chat', 'anthropic-messages', 'openai-responses', 'gemini'];

const SCHEMA = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };

/** A request of each client with everything a response could echo: instructions, tools, reasoning, options. */
const RICH_BODIES: Record<Protocol, Record<string, unknown>> = {
  'openai-chat': {
    model: 'm',
    stream: true,
    stream_options: { include_usage: true },
    messages: [
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'Hi' },
    ],
    tools: [{ type: 'function', function: { name: 'read', description: 'Read a file.', parameters: SCHEMA } }],
    tool_choice: 'auto',
    reasoning_effort: 'high',
    temperature: 0.5,
  },
  'anthropic-messages': {
    model: 'm',
    max_tokens: 4096,
    system: 'Answer briefly.',
    messages: [{ role: 'user', content: 'Hi' }],
    tools: [{ name: 'read', description: 'Read a file.', input_schema: SCHEMA }],
    tool_choice: { type: 'auto' },
    thinking: { type: 'enabled', budget_tokens: 2048 },
  },
  'openai-responses': {
    model: 'm',
    instructions: 'Answer briefly.',
    input: 'Hi',
    tools: [{ type: 'function', name: 'read', description: 'Read a file.', parameters: SCHEMA }],
    reasoning: { effort: 'high', summary: 'auto' },
    temperature: 0.5,
  },
  gemini: {
    contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
    systemInstruction: { parts: [{ text: 'Answer briefly.' }] },
    tools: [{ functionDeclarations: [{ name: 'read', description: 'Read a file.', parameters: SCHEMA }] }],
    generationConfig: { temperature: 0.5, thinkingConfig: { includeThoughts: true } },
  },
};

const contextOf = (request: ResponseRequest): ResponseContext => ({ requestId: 'req1', created: 1_700_000_000, model: 'm', request });

function encodeStream(client: Protocol, parts: StreamPart[], request: ResponseRequest): string {
  const encoder = getCodec(client).createStreamEncoder(contextOf(request));
  return parts.map((part) => encoder.encode(part)).join('') + encoder.finish();
}

const recordedStreams = (protocol: Protocol) => readdirSync(join(FIXTURES_DIRECTORY, protocol)).filter((name) => name.endsWith('.sse'));

describe('what a response context keeps of the request', () => {
  for (const client of PROTOCOLS) {
    const request: GenerateRequest = decodeClientRequest(client, RICH_BODIES[client]);
    const kept = getCodec(client).responseRequestOf(request);
    const everything = requestWithoutConversation(request);

    it(`${client}: never the conversation; every recorded answer encodes as with the whole request`, () => {
      expect(request.system.length).toBeGreaterThan(0);
      expect(request.tools.length).toBeGreaterThan(0);
      expect(kept).not.toHaveProperty('messages');
      let compared = 0;
      for (const upstream of PROTOCOLS) {
        for (const file of recordedAnswers(upstream)) {
          const response = decodeRecordedAnswer(upstream, file);
          expect(JSON.stringify(getCodec(client).encodeResponse(response, contextOf(kept))), `${upstream}/${file}`).toBe(
            JSON.stringify(getCodec(client).encodeResponse(response, contextOf(everything))),
          );
          compared += 1;
        }
        for (const file of recordedStreams(upstream)) {
          const parts = decodeRecordedStream(upstream, file);
          expect(encodeStream(client, parts, kept), `${upstream}/${file}`).toBe(encodeStream(client, parts, everything));
          compared += 1;
        }
      }
      expect(compared).toBeGreaterThan(40);
    });
  }

  it('keeps the instructions and tools only for the Responses API, whose responses echo them', () => {
    for (const client of PROTOCOLS) {
      const request = decodeClientRequest(client, RICH_BODIES[client]);
      const kept = getCodec(client).responseRequestOf(request);
      const echoes = client === 'openai-responses';
      expect(kept.system, client).toEqual(echoes ? request.system : []);
      expect(kept.tools, client).toEqual(echoes ? request.tools : []);
      expect(kept.reasoning, client).toEqual(request.reasoning);
      expect(kept.extensions, client).toBe(request.extensions);
    }
  });
});
