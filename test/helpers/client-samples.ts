import type { FakeReply, RecordedRequest } from './fake-upstream.js';
import { identifyRequest, type UpstreamProtocol } from './fake-protocol-upstream.js';
import { readFixture } from './fixtures.js';

export type ClientProtocol = UpstreamProtocol;

/** What a client received, as one record for the Python checker: `kind` names the SDK type it must fit. */
export interface ClientSample {
  kind: string;
  label: string;
  value: unknown;
}

interface Scenario {
  json?: string;
  stream?: string;
  /** The upstream's HTTP status (an error fixture). */
  status?: number;
  tools?: boolean;
  reasoning?: boolean;
}

/**
 * Recorded answers of each upstream protocol, by scenario: the model name the gateway routes to
 * `<provider>/<scenario>`. Between them they hold every kind of part a translated answer can carry
 * (text, tool calls, parallel calls, reasoning, redacted thinking, cache counts, images, server
 * tools, blocked prompts, upstream errors before and during a stream).
 */
export const SCENARIOS: Record<UpstreamProtocol, Record<string, Scenario>> = {
  'openai-chat': {
    text: { json: 'text.json', stream: 'text-usage-stream.sse' },
    tool: { json: 'tool-call.json', stream: 'tool-call-stream.sse', tools: true },
    parallel: { json: 'parallel-tool-calls.json', stream: 'parallel-tool-calls-stream.sse', tools: true },
    reasoning: { json: 'reasoning.json', stream: 'reasoning-length-stream.sse', reasoning: true },
    cached: { json: 'cached-tokens.json' },
    refusal: { json: 'refusal.json' },
    length: { json: 'length.json' },
    filtered: { json: 'content-filter-azure.json' },
    search: { stream: 'web-search-stream.sse' },
    error: { json: 'error-400.json', stream: 'error-400.json', status: 400 },
  },
  'anthropic-messages': {
    text: { json: 'text.json', stream: 'text-stream.sse' },
    tool: { json: 'tool-call.json', stream: 'tool-call-stream.sse', tools: true },
    parallel: { json: 'parallel-tool-calls.json', stream: 'parallel-tool-calls-stream.sse', tools: true },
    reasoning: { json: 'thinking.json', stream: 'thinking-stream.sse', reasoning: true },
    'reasoning-tool': { stream: 'thinking-tool-call-stream.sse', reasoning: true, tools: true },
    redacted: { stream: 'redacted-thinking-stream.sse', reasoning: true },
    cached: { json: 'cache-read-write.json', stream: 'cache-read-stream.sse' },
    'stop-sequence': { json: 'stop-sequence.json', stream: 'stop-sequence-stream.sse' },
    search: { stream: 'server-tool-web-search-stream.sse' },
    code: { stream: 'server-tool-code-execution-stream.sse' },
    error: { json: 'error-400-invalid-request.json', stream: 'error-400-invalid-request.json', status: 400 },
  },
  'openai-responses': {
    text: { json: 'text.json', stream: 'text-stream.sse' },
    tool: { json: 'tool-call.json', stream: 'tool-call-stream.sse', tools: true },
    parallel: { json: 'parallel-tool-calls.json', tools: true },
    reasoning: { json: 'reasoning-summary.json', stream: 'reasoning-summary-tool-call-stream.sse', reasoning: true, tools: true },
    cached: { json: 'cached-tokens.json', stream: 'cached-tokens-stream.sse' },
    // image-generation-stream.sse is left out: its source shortened the base64, which genai rejects as bytes.
    search: { stream: 'web-search-stream.sse' },
    'stream-error': { stream: 'error-stream.sse' },
    error: { json: 'error-400.json', stream: 'error-400.json', status: 400 },
  },
  gemini: {
    text: { json: 'text.json', stream: 'text-stream.sse' },
    tool: { json: 'parallel-tool-calls.json', stream: 'tool-call-stream.sse', tools: true },
    'partial-args': { stream: 'tool-call-partial-args-stream-vertex.sse', tools: true },
    reasoning: { json: 'thinking.json', stream: 'thinking-stream.sse', reasoning: true },
    'reasoning-tool': { stream: 'thinking-tool-call-stream.sse', reasoning: true, tools: true },
    cached: { json: 'cached-content.json' },
    'max-tokens': { json: 'max-tokens.json' },
    safety: { json: 'safety-finish.json' },
    blocked: { json: 'prompt-blocked-model-armor-vertex.json', stream: 'prompt-blocked-safety-stream.sse' },
    image: { json: 'image-vertex.json', stream: 'image-stream-vertex.sse' },
    code: { stream: 'code-execution-stream.sse' },
    grounding: { stream: 'web-search-grounding-stream.sse' },
    error: { json: 'error-400-invalid-argument.json', stream: 'error-400-invalid-argument.json', status: 400 },
  },
};

/** The fake upstream's answer: the scenario's recording for the mode asked, or a 500 naming what is missing. */
export function replyFromScenario(request: RecordedRequest): FakeReply {
  const identified = identifyRequest(request);
  const scenario = SCENARIOS[identified.protocol][identified.model];
  const file = identified.stream ? scenario?.stream : scenario?.json;
  if (!scenario || !file) return { status: 500, json: JSON.stringify({ error: { message: `no recording for ${identified.model}` } }) };
  const text = readFixture(identified.protocol, file);
  if (scenario.status !== undefined) return { status: scenario.status, json: text };
  return identified.stream ? { sse: text } : { json: text };
}

const QUESTION = 'What is the weather?';
const TOOL_SCHEMA = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] };

export interface RequestOptions {
  tools?: boolean;
  reasoning?: boolean;
  /** Fields laid over the body (a client's own tools, formats, sampling). */
  body?: Record<string, unknown>;
}

/** A client's request as its SDK would send it: path, headers and body. */
export function clientRequest(
  client: ClientProtocol,
  model: string,
  stream: boolean,
  options: RequestOptions = {},
): { path: string; headers: Record<string, string>; body: Record<string, unknown> } {
  switch (client) {
    case 'openai-chat':
      return {
        path: '/v1/chat/completions',
        headers: { authorization: 'Bearer sk-test' },
        body: Object.assign(
          { model, messages: [{ role: 'user', content: QUESTION }], stream },
          stream ? { stream_options: { include_usage: true } } : {},
          options.tools ? { tools: [{ type: 'function', function: { name: 'lookup', parameters: TOOL_SCHEMA } }] } : {},
          options.reasoning ? { reasoning_effort: 'low' } : {},
          options.body ?? {},
        ),
      };
    case 'openai-responses':
      return {
        path: '/v1/responses',
        headers: { authorization: 'Bearer sk-test' },
        body: Object.assign(
          { model, input: QUESTION, stream },
          options.tools ? { tools: [{ type: 'function', name: 'lookup', parameters: TOOL_SCHEMA, strict: false }] } : {},
          options.reasoning ? { reasoning: { effort: 'low', summary: 'auto' } } : {},
          options.body ?? {},
        ),
      };
    case 'anthropic-messages':
      return {
        path: '/v1/messages',
        headers: { 'x-api-key': 'sk-test', 'anthropic-version': '2023-06-01' },
        body: Object.assign(
          { model, max_tokens: 4096, messages: [{ role: 'user', content: QUESTION }], stream },
          options.tools ? { tools: [{ name: 'lookup', input_schema: TOOL_SCHEMA }] } : {},
          options.reasoning ? { thinking: { type: 'enabled', budget_tokens: 1024 } } : {},
          options.body ?? {},
        ),
      };
    case 'gemini':
      return {
        path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        headers: { 'x-goog-api-key': 'test-key' },
        body: Object.assign(
          { contents: [{ role: 'user', parts: [{ text: QUESTION }] }] },
          options.tools ? { tools: [{ functionDeclarations: [{ name: 'lookup', parametersJsonSchema: TOOL_SCHEMA }] }] } : {},
          options.reasoning ? { generationConfig: { thinkingConfig: { includeThoughts: true } } } : {},
          options.body ?? {},
        ),
      };
  }
}

/**
 * Sends one request and turns what came back into samples: the body (a response or an error), or
 * each record of the stream (an event, or an error record in the protocol's own framing).
 */
export async function collectClientSamples(baseUrl: string, client: ClientProtocol, model: string, stream: boolean, options: RequestOptions = {}): Promise<ClientSample[]> {
  const request = clientRequest(client, model, stream, options);
  const label = `${client} ← ${model}${stream ? ' (stream)' : ''}`;
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: 'POST',
    headers: Object.assign({ 'content-type': 'application/json' }, request.headers),
    body: JSON.stringify(request.body),
  });
  const text = await response.text();
  if (!response.ok || !response.headers.get('content-type')?.includes('text/event-stream')) {
    return [{ kind: `${client}/${response.ok ? 'response' : 'error'}`, label: `${label} ${response.status}`, value: JSON.parse(text) }];
  }
  const samples: ClientSample[] = [];
  for (const [index, record] of text.split(/\r?\n\r?\n/).entries()) {
    const lines = record.split(/\r?\n/).filter((line) => line !== '' && !line.startsWith(':'));
    if (lines.length === 0) continue;
    const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart());
    const where = `${label} record ${index}`;
    // A Gemini error after the stream began is bare JSON, the only framing @google/genai reads as an error.
    if (data.length === 0) {
      samples.push({ kind: `${client}/error`, label: where, value: JSON.parse(lines.join('\n')) });
      continue;
    }
    if (data[0] === '[DONE]') continue;
    const value = JSON.parse(data.join('\n'));
    samples.push({ kind: `${client}/${streamRecordKind(client, value)}`, label: where, value });
  }
  return samples;
}

function streamRecordKind(client: ClientProtocol, value: { type?: unknown; error?: unknown }): string {
  switch (client) {
    case 'openai-chat':
      return value.error !== undefined ? 'error' : 'chunk';
    case 'openai-responses':
      // The `error` event is one of ResponseStreamEvent's members.
      return 'event';
    case 'anthropic-messages':
      return value.type === 'error' ? 'error' : 'event';
    case 'gemini':
      return value.error !== undefined ? 'error' : 'response';
  }
}
