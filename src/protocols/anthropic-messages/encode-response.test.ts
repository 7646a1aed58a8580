import { describe, expect, it } from 'vitest';
import type { GenerateResponse } from '../../core/generate-response.js';
import type { ResponseContext } from '../protocol-codec.js';
import { encodeAnthropicMessagesResponse } from './encode-response.js';

const CONTEXT: ResponseContext = {
  requestId: 'req_7',
  created: 1_700_000_000,
  model: 'claude-alias',
  request: { model: 'claude-alias', system: [], tools: [], stream: false, extensions: {} },
};

describe('encodeAnthropicMessagesResponse', () => {
  it('writes a response from another upstream as an Anthropic message (first choice only)', () => {
    const response: GenerateResponse = {
      id: 'chatcmpl-1',
      model: 'gpt-5',
      choices: [
        {
          index: 0,
          content: [
            { type: 'reasoning', text: 'Unsigned reasoning from an OpenAI-compatible server.' },
            { type: 'text', text: 'Here you go.' },
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'lookup', input: '{"id":1}' },
            { type: 'file', mediaType: 'image/png', data: { type: 'base64', base64: 'iVBO' } },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        },
        { index: 1, content: [{ type: 'text', text: 'Another choice.' }], finishReason: { unified: 'stop', raw: 'stop' } },
      ],
      usage: { input: { total: 100, cacheRead: 40 }, output: { total: 20, reasoning: 5 } },
    };
    expect(encodeAnthropicMessagesResponse(response, CONTEXT)).toEqual({
      id: 'msg_req_7',
      type: 'message',
      role: 'assistant',
      model: 'claude-alias',
      content: [
        { type: 'thinking', thinking: 'Unsigned reasoning from an OpenAI-compatible server.', signature: '' },
        { type: 'text', text: 'Here you go.' },
        { type: 'tool_use', id: 'call_1', name: 'lookup', input: { id: 1 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 60, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 40, output_tokens_details: { thinking_tokens: 5 } },
    });
  });

  it('writes text blocks without citations as the API does, with no citations key (the AI SDK rejects null)', () => {
    const citation = { type: 'web_search_result_location', url: 'https://example.com', title: 'Example', cited_text: 'Rain.', encrypted_index: 'x' };
    const response: GenerateResponse = {
      choices: [
        {
          index: 0,
          content: [
            { type: 'text', text: 'Plain.' },
            { type: 'text', text: 'Cited.', protocolMetadata: { 'anthropic-messages': { citations: [citation] } } },
          ],
          finishReason: { unified: 'stop', raw: 'end_turn' },
        },
      ],
      usage: { input: {}, output: {} },
    };
    expect(encodeAnthropicMessagesResponse(response, CONTEXT).content).toEqual([
      { type: 'text', text: 'Plain.' },
      { type: 'text', text: 'Cited.', citations: [citation] },
    ]);
  });

  it('reports the stop sequence that ended the text', () => {
    const response: GenerateResponse = {
      choices: [{ index: 0, content: [{ type: 'text', text: 'Count: 1, 2' }], finishReason: { unified: 'stop', raw: 'STOP', stopSequence: ', 3' } }],
      usage: { input: {}, output: {} },
    };
    expect(encodeAnthropicMessagesResponse(response, CONTEXT)).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: ', 3' });
  });
});
