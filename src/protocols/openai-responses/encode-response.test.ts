import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { GenerateResponse } from '../../core/generate-response.js';
import type { ResponseContext } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';
import { openAIResponsesCodec } from './codec.js';

const FIXTURES = new URL('../../../test/fixtures/openai-responses/', import.meta.url);

function contextFor(body: JsonObject): ResponseContext {
  return { requestId: 'req42', created: 1_760_000_000, model: String(body.model), request: openAIResponsesCodec.decodeRequest(body, {}).request };
}

const usage = { input: { total: 20, cacheRead: 5 }, output: { total: 9, reasoning: 4 } };

describe('encodeOpenAIResponsesResponse', () => {
  it('writes the full Response object, echoing the request', () => {
    const context = contextFor({
      model: 'my-model',
      instructions: 'Be brief.',
      input: 'Hi',
      temperature: 0.5,
      max_output_tokens: 300,
      metadata: { team: 'a' },
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} } }],
      text: { verbosity: 'low' },
      prompt_cache_key: 'k1',
    });
    const response: GenerateResponse = { choices: [{ index: 0, content: [{ type: 'text', text: 'Hello!' }], finishReason: { unified: 'stop' } }], usage };
    expect(openAIResponsesCodec.encodeResponse(response, context)).toEqual({
      id: 'resp_req42',
      object: 'response',
      created_at: 1_760_000_000,
      status: 'completed',
      background: false,
      billing: { payer: 'developer' },
      completed_at: 1_760_000_000,
      error: null,
      incomplete_details: null,
      instructions: 'Be brief.',
      max_output_tokens: 300,
      max_tool_calls: null,
      model: 'my-model',
      output: [
        { type: 'message', id: 'msg_req42_0', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Hello!' }] },
      ],
      parallel_tool_calls: true,
      previous_response_id: null,
      prompt_cache_key: 'k1',
      prompt_cache_retention: null,
      reasoning: { effort: null, summary: null },
      safety_identifier: null,
      service_tier: 'default',
      store: false,
      temperature: 0.5,
      text: { format: { type: 'text' }, verbosity: 'low' },
      tool_choice: 'auto',
      tools: [{ type: 'function', name: 'lookup', description: null, parameters: { type: 'object', properties: {} }, strict: false }],
      top_logprobs: 0,
      top_p: 1,
      truncation: 'disabled',
      usage: { input_tokens: 20, input_tokens_details: { cached_tokens: 5, cache_write_tokens: 0 }, output_tokens: 9, output_tokens_details: { reasoning_tokens: 4 }, total_tokens: 29 },
      user: null,
      metadata: { team: 'a' },
    });
  });

  it('writes reasoning, message, function call and image items with ids from the request id', () => {
    const response: GenerateResponse = {
      choices: [
        {
          index: 0,
          content: [
            { type: 'reasoning', text: 'Think.' },
            { type: 'text', text: 'Calling.' },
            { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'lookup', input: '{"q":1}' },
            { type: 'tool-call', toolCallId: '', toolName: 'lookup', input: '{}' },
            { type: 'file', mediaType: 'image/png', data: { type: 'base64', base64: 'iVBOR' } },
          ],
          finishReason: { unified: 'tool-calls' },
        },
      ],
      usage,
    };
    const wire = openAIResponsesCodec.encodeResponse(response, contextFor({ model: 'm', input: 'x' })) as JsonObject;
    expect(wire.output).toEqual([
      { type: 'reasoning', id: 'rs_req42_0', summary: [{ type: 'summary_text', text: 'Think.' }] },
      { type: 'message', id: 'msg_req42_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Calling.' }] },
      { type: 'function_call', id: 'fc_req42_2', call_id: 'toolu_1', name: 'lookup', arguments: '{"q":1}', status: 'completed' },
      { type: 'function_call', id: 'fc_req42_3', call_id: 'call_req42_3', name: 'lookup', arguments: '{}', status: 'completed' },
      { type: 'image_generation_call', id: 'ig_req42_4', status: 'completed', result: 'iVBOR', output_format: 'png' },
    ]);
  });

  it('reports a length finish as incomplete with max_output_tokens', () => {
    const response: GenerateResponse = { choices: [{ index: 0, content: [{ type: 'text', text: 'Cut' }], finishReason: { unified: 'length' } }], usage };
    const wire = openAIResponsesCodec.encodeResponse(response, contextFor({ model: 'm', input: 'x' })) as JsonObject;
    expect([wire.status, wire.incomplete_details, wire.completed_at]).toEqual(['incomplete', { reason: 'max_output_tokens' }, null]);
  });

  it('carries another vendor’s thinking signature through encrypted_content and back', () => {
    const signed = { type: 'reasoning' as const, text: 'Hmm.', signature: 'sig-abc', protocolMetadata: { 'anthropic-messages': { block: 1 } } };
    const response: GenerateResponse = { choices: [{ index: 0, content: [signed], finishReason: { unified: 'stop' } }], usage };
    const item = ((openAIResponsesCodec.encodeResponse(response, contextFor({ model: 'm', input: 'x' })) as JsonObject).output as JsonObject[])[0];
    expect(item.encrypted_content).toMatch(/^switchyard\.reasoning\.v1:/);
    // The client (Codex CLI) sends the item back on its next turn.
    const next = openAIResponsesCodec.decodeRequest({ model: 'm', input: [item, { role: 'user', content: 'go on' }] }, {}).request;
    expect(next.messages[0]).toEqual({
      role: 'assistant',
      content: [{ type: 'reasoning', text: 'Hmm.', signature: 'sig-abc', protocolMetadata: { 'anthropic-messages': { block: 1 }, 'openai-responses': { itemId: 'rs_req42_0' } } }],
    });
  });

  it('is read by the official SDK (client.responses.create)', async () => {
    const response: GenerateResponse = {
      choices: [{ index: 0, content: [{ type: 'reasoning', text: 'Plan.' }, { type: 'text', text: 'Hello ' }, { type: 'text', text: 'world' }], finishReason: { unified: 'stop' } }],
      usage,
    };
    const wire = openAIResponsesCodec.encodeResponse(response, contextFor({ model: 'm', input: 'x' }));
    const client = new OpenAI({
      apiKey: 'test-key',
      baseURL: 'http://gateway.test/v1',
      fetch: async () => new Response(JSON.stringify(wire), { headers: { 'content-type': 'application/json' } }),
    });
    const created = await client.responses.create({ model: 'm', input: 'x' });
    expect(created.output_text).toBe('Hello world');
    expect(created.usage?.total_tokens).toBe(29);
  });

  it('round-trips every recorded body: decode → encode → decode → encode is stable', () => {
    for (const name of ['text.json', 'cached-tokens.json', 'parallel-tool-calls.json', 'reasoning-summary.json', 'structured-output.json', 'tool-call.json']) {
      const context = contextFor({ model: 'm', input: 'x' });
      const first = openAIResponsesCodec.decodeResponse(JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8')));
      const wire = openAIResponsesCodec.encodeResponse(first, context);
      const second = openAIResponsesCodec.decodeResponse(wire);
      expect(openAIResponsesCodec.encodeResponse(second, context), name).toEqual(wire);
      // The content survives; only the vendor's item ids are replaced by ours.
      const withoutIds = (response: GenerateResponse) =>
        JSON.parse(JSON.stringify(response.choices, (key, value) => (key === 'itemId' || key === 'phase' ? undefined : value)));
      expect(withoutIds(second), name).toEqual(withoutIds(first));
      // A count the recording lacks (cache writes, before OpenAI reported them) is written as 0: the SDKs require it.
      expect(second.usage.input, name).toEqual(Object.assign({}, first.usage.input, { cacheWrite: first.usage.input.cacheWrite ?? 0 }));
    }
  });
});
