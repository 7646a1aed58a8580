// What travels on the wire in the benchmark: the upstream's answers (real recorded bodies from
// test/fixtures, stretched to the wanted number of stream events) and the clients' requests.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROTOCOLS = ['openai-chat', 'anthropic-messages', 'openai-responses', 'gemini'];

export const FIXTURES_DIRECTORY = process.env.SWITCHYARD_FIXTURES ?? fileURLToPath(new URL('../../test/fixtures/', import.meta.url));

function readFixture(protocol, name) {
  const file = join(FIXTURES_DIRECTORY, protocol, name);
  if (!existsSync(file)) throw new Error(`bench: fixture ${file} is missing (set SWITCHYARD_FIXTURES to the fixtures folder)`);
  return readFileSync(file, 'utf8');
}

/** SSE records, each with its own blank-line terminator. */
export function splitSseRecords(text) {
  return text.split(/(?<=\r\n\r\n|\n\n)/).filter((record) => record.trim() !== '');
}

function dataOf(record) {
  const line = record.split(/\r?\n/).find((candidate) => candidate.startsWith('data:'));
  if (!line) return undefined;
  const text = line.slice(5).trim();
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Which records of each recorded stream carry text deltas (repeated to make a stream longer). */
const IS_DELTA = {
  'openai-chat': (data) => typeof data?.choices?.[0]?.delta?.content === 'string' && data.choices[0].delta.content !== '' && data.choices[0].finish_reason == null,
  'anthropic-messages': (data) => data?.type === 'content_block_delta',
  'openai-responses': (data) => data?.type === 'response.output_text.delta',
  gemini: (data) => Array.isArray(data?.candidates) && !data.candidates[0]?.finishReason,
};

const STREAM_FIXTURE = {
  'openai-chat': 'text-usage-stream.sse',
  'anthropic-messages': 'text-stream.sse',
  'openai-responses': 'text-stream.sse',
  gemini: 'text-stream.sse',
};

/**
 * A recorded text stream with exactly `events` records: the records before the first delta and
 * after the last one are kept, the deltas are repeated (or cut) to fill the rest.
 */
export function streamRecords(protocol, events) {
  const records = splitSseRecords(readFixture(protocol, STREAM_FIXTURE[protocol]));
  const isDelta = (record) => IS_DELTA[protocol](dataOf(record));
  const first = records.findIndex(isDelta);
  const last = records.findLastIndex(isDelta);
  if (first < 0) throw new Error(`bench: no text delta in the ${protocol} stream fixture`);
  const head = records.slice(0, first);
  const tail = records.slice(last + 1);
  const deltas = records.slice(first, last + 1).filter(isDelta);
  const count = Math.max(1, events - head.length - tail.length);
  return [...head, ...Array.from({ length: count }, (_, position) => deltas[position % deltas.length]), ...tail];
}

/** The recorded non-stream text answer of each protocol, byte for byte. */
export function jsonAnswer(protocol) {
  return readFixture(protocol, 'text.json');
}

// A small agent-like conversation: a system prompt, a few turns, one tool with a JSON schema.
const SYSTEM = 'You are a careful coding assistant. Answer briefly, cite file names, and prefer small diffs. '.repeat(6);
const TURNS = [
  ['user', 'The build fails with "Cannot find module ./config.js" after the ESM migration. What should I check first?'],
  ['assistant', 'Check that every relative import carries its .js extension and that package.json has "type": "module".'],
  ['user', 'Done, the build passes now. Can you read src/config/load-config.ts and tell me whether the environment variables are expanded before validation?'],
];
const TOOL = {
  name: 'read_file',
  description: 'Read a text file of the repository.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', description: 'path relative to the repository root' }, maxBytes: { type: 'integer', minimum: 1 } },
    required: ['path'],
  },
};

/** A client request in `protocol` for `model`: path, headers and body text. */
export function clientRequest(protocol, model, stream) {
  switch (protocol) {
    case 'openai-chat':
      return {
        path: '/v1/chat/completions',
        headers: { authorization: 'Bearer bench-key', 'content-type': 'application/json' },
        body: JSON.stringify({
          model,
          messages: [{ role: 'system', content: SYSTEM }, ...TURNS.map(([role, content]) => ({ role, content }))],
          tools: [{ type: 'function', function: TOOL }],
          max_tokens: 1024,
          ...(stream && { stream: true, stream_options: { include_usage: true } }),
        }),
      };
    case 'anthropic-messages':
      return {
        path: '/v1/messages',
        headers: { 'x-api-key': 'bench-key', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({
          model,
          system: SYSTEM,
          messages: TURNS.map(([role, content]) => ({ role, content })),
          tools: [{ name: TOOL.name, description: TOOL.description, input_schema: TOOL.parameters }],
          max_tokens: 1024,
          ...(stream && { stream: true }),
        }),
      };
    case 'openai-responses':
      return {
        path: '/v1/responses',
        headers: { authorization: 'Bearer bench-key', 'content-type': 'application/json' },
        body: JSON.stringify({
          model,
          instructions: SYSTEM,
          input: TURNS.map(([role, content]) => ({ role, content })),
          tools: [{ type: 'function', ...TOOL }],
          max_output_tokens: 1024,
          ...(stream && { stream: true }),
        }),
      };
    case 'gemini':
      return {
        path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        headers: { 'x-goog-api-key': 'bench-key', 'content-type': 'application/json' },
        body: JSON.stringify({
          systemInstruction: { parts: [{ text: SYSTEM }] },
          contents: TURNS.map(([role, content]) => ({ role: role === 'assistant' ? 'model' : 'user', parts: [{ text: content }] })),
          tools: [{ functionDeclarations: [TOOL] }],
          generationConfig: { maxOutputTokens: 1024 },
        }),
      };
    default:
      throw new Error(`bench: unknown protocol ${protocol}`);
  }
}
