import type { FakeReply, RecordedRequest } from './fake-upstream.js';
import { readFixture, splitSseRecords } from './fixtures.js';

export type UpstreamProtocol = 'openai-chat' | 'anthropic-messages' | 'openai-responses' | 'gemini';

export const UPSTREAM_PROTOCOLS: UpstreamProtocol[] = ['openai-chat', 'anthropic-messages', 'openai-responses', 'gemini'];

/** The gateway's provider id for the fake upstream of each protocol. */
export const UPSTREAM_PROVIDER_ID: Record<UpstreamProtocol, string> = {
  'openai-chat': 'up-chat',
  'anthropic-messages': 'up-anthropic',
  'openai-responses': 'up-responses',
  gemini: 'up-gemini',
};

/** Gateway providers, one per protocol, all served by one fake upstream at `url`. */
export function createUpstreamProviders(url: string): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    UPSTREAM_PROTOCOLS.map((protocol) => [
      UPSTREAM_PROVIDER_ID[protocol],
      // OpenAI-style base URLs include /v1; Anthropic's and Gemini's do not.
      { type: protocol, baseURL: protocol.startsWith('openai') ? `${url}/v1` : url, apiKey: 'k', discoverModels: false },
    ]),
  );
}

/** The recorded answers a fake upstream of each protocol replays, by scenario and mode. */
export const FIXTURE_FILES: Record<UpstreamProtocol, Record<'text' | 'tool', { json: string; stream: string }>> = {
  'openai-chat': { text: { json: 'text.json', stream: 'text-usage-stream.sse' }, tool: { json: 'tool-call.json', stream: 'tool-call-stream.sse' } },
  'anthropic-messages': { text: { json: 'text.json', stream: 'text-stream.sse' }, tool: { json: 'tool-call.json', stream: 'tool-call-stream.sse' } },
  'openai-responses': { text: { json: 'text.json', stream: 'text-stream.sse' }, tool: { json: 'tool-call.json', stream: 'tool-call-stream.sse' } },
  gemini: { text: { json: 'text.json', stream: 'text-stream.sse' }, tool: { json: 'parallel-tool-calls.json', stream: 'tool-call-stream.sse' } },
};

export interface IdentifiedRequest {
  protocol: UpstreamProtocol;
  model: string;
  stream: boolean;
  body: any;
  /** Tool results the request carries, as (call id or name, content) pairs in the upstream's terms. */
  toolResults: Array<{ id: string; content: string }>;
}

/** Which protocol, model and mode a request to the fake upstream is, read off its path and body. */
export function identifyRequest(request: RecordedRequest): IdentifiedRequest {
  const body = JSON.parse(request.body);
  const path = request.path.split('?')[0];
  if (path.endsWith('/chat/completions')) {
    const toolResults = body.messages.filter((message: any) => message.role === 'tool').map((message: any) => ({ id: message.tool_call_id, content: String(message.content) }));
    return { protocol: 'openai-chat', model: body.model, stream: body.stream === true, body, toolResults };
  }
  if (path.endsWith('/messages')) {
    const toolResults = body.messages
      .flatMap((message: any) => (Array.isArray(message.content) ? message.content : []))
      .filter((block: any) => block.type === 'tool_result')
      .map((block: any) => ({ id: block.tool_use_id, content: typeof block.content === 'string' ? block.content : block.content.map((part: any) => part.text).join('') }));
    return { protocol: 'anthropic-messages', model: body.model, stream: body.stream === true, body, toolResults };
  }
  if (path.endsWith('/responses')) {
    const items = Array.isArray(body.input) ? body.input : [];
    const toolResults = items.filter((item: any) => item.type === 'function_call_output').map((item: any) => ({ id: item.call_id, content: String(item.output) }));
    return { protocol: 'openai-responses', model: body.model, stream: body.stream === true, body, toolResults };
  }
  const match = /\/models\/(.+):(generateContent|streamGenerateContent)$/.exec(path);
  if (!match) throw new Error(`fake upstream: unexpected path ${request.path}`);
  const toolResults = body.contents
    .flatMap((content: any) => content.parts)
    .filter((part: any) => part.functionResponse)
    .map((part: any) => ({ id: part.functionResponse.name, content: JSON.stringify(part.functionResponse.response) }));
  return { protocol: 'gemini', model: decodeURIComponent(match[1]), stream: match[2] === 'streamGenerateContent', body, toolResults };
}

/** Replays the text fixture for `text` models and for any turn carrying tool results, else the tool-call fixture. */
export function replyFromFixtures(request: RecordedRequest): FakeReply {
  const identified = identifyRequest(request);
  const scenario = identified.model.endsWith('tool') && identified.toolResults.length === 0 ? 'tool' : 'text';
  const file = FIXTURE_FILES[identified.protocol][scenario][identified.stream ? 'stream' : 'json'];
  const text = readFixture(identified.protocol, file);
  return identified.stream ? { sse: text } : { json: text };
}

/** The ids (Gemini: names) of the tool calls a tool fixture makes, read from the recorded bytes. */
export function fixtureToolCallIds(protocol: UpstreamProtocol, stream: boolean): string[] {
  const file = FIXTURE_FILES[protocol].tool[stream ? 'stream' : 'json'];
  const text = readFixture(protocol, file);
  const events = stream
    ? splitSseRecords(text)
        .map((record) => record.split(/\r?\n/).find((line) => line.startsWith('data:'))!.slice(5).trim())
        .filter((data) => data !== '[DONE]')
        .map((data) => JSON.parse(data))
    : [JSON.parse(text)];
  const ids: string[] = [];
  for (const event of events) {
    if (protocol === 'openai-chat') {
      for (const call of event.choices?.[0]?.delta?.tool_calls ?? event.choices?.[0]?.message?.tool_calls ?? []) if (call.id) ids.push(call.id);
    } else if (protocol === 'anthropic-messages') {
      if (event.content_block?.type === 'tool_use') ids.push(event.content_block.id);
      for (const block of event.content ?? []) if (block.type === 'tool_use') ids.push(block.id);
    } else if (protocol === 'openai-responses') {
      if (event.type === 'response.output_item.added' && event.item.type === 'function_call') ids.push(event.item.call_id);
      for (const item of event.output ?? []) if (item.type === 'function_call') ids.push(item.call_id);
    } else {
      for (const part of event.candidates?.[0]?.content?.parts ?? []) if (part.functionCall) ids.push(part.functionCall.name);
    }
  }
  return ids;
}
