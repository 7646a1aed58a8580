import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import type { GenerateRequest } from '../../core/generate-request.js';
import type { JsonObject } from '../read-fields.js';
import { decodeAnthropicMessagesRequest } from './decode-request.js';

const ANTHROPIC = 'anthropic-messages';
const EPHEMERAL = { type: 'ephemeral' };
const READ_SCHEMA = { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] };

/** A request as Claude Code sends it: cache breakpoints everywhere, adaptive thinking, a system message mid-conversation. */
const CLAUDE_CODE_REQUEST = {
  model: 'claude-sonnet-4-5',
  max_tokens: 32000,
  stream: true,
  system: [
    { type: 'text', text: 'You are Claude Code.', cache_control: EPHEMERAL },
    { type: 'text', text: 'Working directory: /repo', cache_control: { type: 'ephemeral', ttl: '1h' } },
  ],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Fix the failing test.', cache_control: EPHEMERAL }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Read the test first.', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque-1' },
        { type: 'text', text: 'Reading it.' },
        { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/repo/a.test.ts' }, caller: { type: 'direct' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'it("adds")', cache_control: EPHEMERAL },
        { type: 'text', text: 'Go on.' },
      ],
    },
    { role: 'system', content: 'Plan mode is on.' },
    { role: 'user', content: 'Continue.' },
  ],
  tools: [
    { name: 'Read', description: 'Reads a file.', input_schema: READ_SCHEMA, cache_control: EPHEMERAL, defer_loading: true, strict: true },
    { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
  ],
  tool_choice: { type: 'auto', disable_parallel_tool_use: true },
  thinking: { type: 'adaptive' },
  output_config: { effort: 'high' },
  metadata: { user_id: 'user_1_account_2_session_3' },
  context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
  service_tier: 'auto',
  temperature: 1,
};

describe('decodeAnthropicMessagesRequest', () => {
  it('decodes a Claude Code request, keeping what only Anthropic understands for an Anthropic upstream', () => {
    const { request, warnings } = decodeAnthropicMessagesRequest(CLAUDE_CODE_REQUEST);
    expect(warnings).toEqual([]);
    expect(request).toEqual<GenerateRequest>({
      model: 'claude-sonnet-4-5',
      maxOutputTokens: 32000,
      stream: true,
      system: [
        { type: 'text', text: 'You are Claude Code.', protocolMetadata: { [ANTHROPIC]: { cache_control: EPHEMERAL } } },
        { type: 'text', text: 'Working directory: /repo', protocolMetadata: { [ANTHROPIC]: { cache_control: { type: 'ephemeral', ttl: '1h' } } } },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Fix the failing test.', protocolMetadata: { [ANTHROPIC]: { cache_control: EPHEMERAL } } }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Read the test first.', signature: 'sig-1', protocolMetadata: { [ANTHROPIC]: {} } },
            { type: 'reasoning', text: '', redactedData: 'opaque-1', protocolMetadata: { [ANTHROPIC]: {} } },
            { type: 'text', text: 'Reading it.' },
            {
              type: 'tool-call',
              toolCallId: 'toolu_1',
              toolName: 'Read',
              input: '{"file_path":"/repo/a.test.ts"}',
              protocolMetadata: { [ANTHROPIC]: { caller: { type: 'direct' } } },
            },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'toolu_1',
              toolName: 'Read',
              content: [{ type: 'text', text: 'it("adds")' }],
              protocolMetadata: { [ANTHROPIC]: { cache_control: EPHEMERAL } },
            },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'Go on.' }] },
        { role: 'system', content: [{ type: 'text', text: 'Plan mode is on.', protocolMetadata: { [ANTHROPIC]: {} } }] },
        { role: 'user', content: [{ type: 'text', text: 'Continue.' }] },
      ],
      tools: [
        {
          type: 'function',
          name: 'Read',
          description: 'Reads a file.',
          inputSchema: READ_SCHEMA,
          strict: true,
          protocolMetadata: { [ANTHROPIC]: { cache_control: EPHEMERAL, defer_loading: true } },
        },
        { type: 'provider', protocol: ANTHROPIC, name: 'web_search', raw: { type: 'web_search_20250305', name: 'web_search', max_uses: 3 } },
      ],
      toolChoice: { type: 'auto' },
      parallelToolCalls: false,
      temperature: 1,
      reasoning: { enabled: true, effort: 'high' },
      user: 'user_1_account_2_session_3',
      extensions: { [ANTHROPIC]: { context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] }, service_tier: 'auto' } },
    });
  });

  it('decodes images, documents, and the order of results and text in a user turn', () => {
    const { request } = decodeAnthropicMessagesRequest({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'shot', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Before.' },
            { type: 'tool_result', tool_use_id: 'toolu_9', is_error: true, content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } }] },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' }, title: 'report.pdf', context: 'Q3' },
            { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
          ],
        },
      ],
    });
    expect(request.messages.slice(1)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Before.' }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'toolu_9', toolName: 'shot', isError: true, content: [{ type: 'file', mediaType: 'image/png', data: { type: 'base64', base64: 'iVBO' } }] }],
      },
      {
        role: 'user',
        content: [
          { type: 'file', mediaType: 'image/*', data: { type: 'url', url: 'https://example.com/cat.jpg' } },
          { type: 'file', mediaType: 'application/pdf', data: { type: 'base64', base64: 'JVBE' }, filename: 'report.pdf', protocolMetadata: { [ANTHROPIC]: { context: 'Q3' } } },
          { type: 'file', mediaType: 'application/pdf', data: { type: 'url', url: 'https://example.com/a.pdf' } },
          { type: 'file', mediaType: 'text/plain', data: { type: 'base64', base64: Buffer.from('plain words').toString('base64') } },
        ],
      },
    ]);
  });

  it('keeps blocks the core cannot hold, with their places, for an Anthropic upstream', () => {
    const serverToolUse = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'rain' } };
    const searchResults = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] };
    const searchResult = { type: 'search_result', source: 'https://wiki', title: 'Rain', content: [{ type: 'text', text: 'Rain is water.' }] };
    const { request } = decodeAnthropicMessagesRequest({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [serverToolUse, searchResults, { type: 'text', text: 'Rain.' }, { type: 'tool_use', id: 'toolu_2', name: 'kb', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: [searchResult] }] },
      ],
    });
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Rain.' }, { type: 'tool-call', toolCallId: 'toolu_2', toolName: 'kb', input: '{}' }],
    });
    expect(request.messages[2]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'toolu_2',
          toolName: 'kb',
          // Other upstreams still get the text; Anthropic gets the search result itself.
          content: [{ type: 'text', text: 'Rain is water.' }],
          protocolMetadata: { [ANTHROPIC]: { content: [searchResult] } },
        },
      ],
    });
    expect(request.extensions).toEqual({
      [ANTHROPIC]: {
        unmapped_content_blocks: [
          { message: 1, part: 0, block: serverToolUse },
          { message: 1, part: 0, block: searchResults },
        ],
      },
    });
  });

  it.each<[string, JsonObject, Partial<GenerateRequest>, JsonObject?]>([
    ['enabled thinking with a budget', { thinking: { type: 'enabled', budget_tokens: 2048 } }, { reasoning: { enabled: true, budgetTokens: 2048 } }],
    ['disabled thinking', { thinking: { type: 'disabled' } }, { reasoning: { enabled: false } }],
    [
      'a thinking display the core has no field for',
      { thinking: { type: 'adaptive', display: 'omitted' } },
      { reasoning: { enabled: true } },
      { thinking: { type: 'adaptive', display: 'omitted' } },
    ],
    ['an effort alone', { output_config: { effort: 'max' } }, { reasoning: { effort: 'max' } }],
    [
      'a JSON schema output format',
      { output_config: { format: { type: 'json_schema', schema: { type: 'object' } } } },
      { responseFormat: { type: 'json', schema: { type: 'object' } } },
    ],
    ['tool_choice any', { tool_choice: { type: 'any' } }, { toolChoice: { type: 'required' } }],
    ['tool_choice tool', { tool_choice: { type: 'tool', name: 'Read', disable_parallel_tool_use: false } }, { toolChoice: { type: 'tool', toolName: 'Read' }, parallelToolCalls: true }],
    ['tool_choice none', { tool_choice: { type: 'none' } }, { toolChoice: { type: 'none' } }],
    ['sampling and stop sequences', { top_p: 0.9, top_k: 40, stop_sequences: ['END'] }, { topP: 0.9, topK: 40, stopSequences: ['END'] }],
  ])('decodes %s', (_name, fields, expected, extension) => {
    const { request } = decodeAnthropicMessagesRequest({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }], ...fields });
    expect(request).toEqual({
      model: 'm',
      maxOutputTokens: 10,
      stream: false,
      system: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      tools: [],
      extensions: extension ? { [ANTHROPIC]: extension } : {},
      ...expected,
    });
  });

  const valid = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] };
  it.each<[string, unknown]>([
    ['body', 'not an object'],
    ['model', { ...valid, model: '' }],
    ['max_tokens', { model: 'm', messages: valid.messages }],
    ['max_tokens', { ...valid, max_tokens: 0 }],
    ['max_tokens', { ...valid, max_tokens: 1.5 }],
    ['max_tokens', { ...valid, max_tokens: '10' }],
    ['messages', { ...valid, messages: [] }],
    ['messages', { ...valid, messages: { role: 'user' } }],
    ['messages[0].role', { ...valid, messages: [{ role: 'tool', content: 'x' }] }],
    ['messages[0].content', { ...valid, messages: [{ role: 'user' }] }],
    ['messages[0].content', { ...valid, messages: [{ role: 'user', content: 5 }] }],
    ['messages[0].content[0].type', { ...valid, messages: [{ role: 'user', content: [{ text: 'x' }] }] }],
    ['messages[0].content[0].text', { ...valid, messages: [{ role: 'user', content: [{ type: 'text', text: 5 }] }] }],
    ['messages[0].content[0].source', { ...valid, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'f' } }] }] }],
    ['messages[0].content[0].tool_use_id', { ...valid, messages: [{ role: 'user', content: [{ type: 'tool_result' }] }] }],
    ['messages[0].content[0].name', { ...valid, messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', input: {} }] }] }],
    ['system[0].type', { ...valid, system: [{ type: 'image' }] }],
    ['temperature', { ...valid, temperature: 1.5 }],
    ['top_p', { ...valid, top_p: -0.1 }],
    ['top_k', { ...valid, top_k: -1 }],
    ['stop_sequences[1]', { ...valid, stop_sequences: ['a', 1] }],
    ['stream', { ...valid, stream: 'yes' }],
    ['tools[0].input_schema', { ...valid, tools: [{ name: 'Read' }] }],
    ['tools[0].name', { ...valid, tools: [{ input_schema: { type: 'object' } }] }],
    ['tool_choice.type', { ...valid, tool_choice: { type: 'sometimes' } }],
    ['tool_choice.name', { ...valid, tool_choice: { type: 'tool' } }],
    ['thinking.type', { ...valid, thinking: {} }],
    ['thinking.budget_tokens', { ...valid, thinking: { type: 'enabled' } }],
    ['thinking.budget_tokens', { ...valid, thinking: { type: 'enabled', budget_tokens: 100 } }],
    ['output_config.effort', { ...valid, output_config: { effort: 'extreme' } }],
    ['output_config.format.schema', { ...valid, output_config: { format: { type: 'json_schema' } } }],
    ['metadata.user_id', { ...valid, metadata: { user_id: 5 } }],
  ])('rejects an invalid %s with a 400 naming it', (param, body) => {
    let thrown: unknown;
    try {
      decodeAnthropicMessagesRequest(body);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect(thrown).toMatchObject({ code: 'invalid_request', status: 400, param });
  });
});
