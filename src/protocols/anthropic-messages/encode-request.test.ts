import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../core/generate-request.js';
import { decodeAnthropicMessagesRequest } from './decode-request.js';
import { ANTHROPIC_DEFAULT_MAX_TOKENS, encodeAnthropicMessagesRequest } from './encode-request.js';

const OPTIONS = { model: 'claude-sonnet-4-5-20250929' };
const ECHO = { type: 'function', name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } } as const;
const ECHO_WIRE = { name: 'echo', input_schema: ECHO.inputSchema };

function request(fields: Partial<GenerateRequest>): GenerateRequest {
  return { model: 'gateway-alias', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], tools: [], stream: false, extensions: {}, ...fields };
}

describe('encodeAnthropicMessagesRequest', () => {
  it('translates a request from another protocol (tools, results, images, system, reasoning budget)', () => {
    // What an OpenAI Chat client's conversation looks like in the core.
    const translated = request({
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these pictures, and the weather in Paris?' },
            { type: 'file', mediaType: 'image/png', data: { type: 'base64', base64: 'iVBORw0KGgo=' } },
            { type: 'file', mediaType: 'image/*', data: { type: 'url', url: 'https://example.com/cat.jpg' } },
            { type: 'file', mediaType: 'application/pdf', data: { type: 'base64', base64: 'JVBERi0=' }, filename: 'report.pdf' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'DeepSeek-style reasoning, unsigned.' },
            { type: 'text', text: 'Looking it up.' },
            { type: 'tool-call', toolCallId: 'call_1', toolName: 'get_weather', input: '{"city":"Paris"}' },
            { type: 'tool-call', toolCallId: 'call_2', toolName: 'get_time', input: 'not json' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'call_1', toolName: 'get_weather', content: [{ type: 'text', text: '18°C' }] },
            { type: 'tool-result', toolCallId: 'call_2', toolName: 'get_time', content: [{ type: 'text', text: 'no clock' }], isError: true },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'Thanks. And tomorrow?' }] },
        { role: 'system', content: [{ type: 'text', text: 'Answer in French.' }] },
      ],
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather by city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } }, strict: true },
        { type: 'function', name: 'get_time', inputSchema: {} },
        { type: 'provider', protocol: 'openai-chat', name: 'web_search_preview', raw: { type: 'web_search_preview' } },
      ],
      toolChoice: { type: 'auto' },
      parallelToolCalls: false,
      maxOutputTokens: 1000,
      temperature: 1.4,
      stopSequences: ['END'],
      reasoning: { budgetTokens: 2048 },
      user: 'user-42',
      presencePenalty: 0.5,
      stream: true,
      extensions: { 'openai-chat': { include_usage: true, logprobs: true } },
    });
    const encoded = encodeAnthropicMessagesRequest(translated, OPTIONS);
    expect(encoded.path).toBe('/v1/messages');
    expect(encoded.headers).toBeUndefined();
    expect(encoded.body).toMatchInlineSnapshot(`
      {
        "max_tokens": 3048,
        "messages": [
          {
            "content": [
              {
                "text": "What is in these pictures, and the weather in Paris?",
                "type": "text",
              },
              {
                "source": {
                  "data": "iVBORw0KGgo=",
                  "media_type": "image/png",
                  "type": "base64",
                },
                "type": "image",
              },
              {
                "source": {
                  "type": "url",
                  "url": "https://example.com/cat.jpg",
                },
                "type": "image",
              },
              {
                "source": {
                  "data": "JVBERi0=",
                  "media_type": "application/pdf",
                  "type": "base64",
                },
                "title": "report.pdf",
                "type": "document",
              },
            ],
            "role": "user",
          },
          {
            "content": [
              {
                "text": "Looking it up.",
                "type": "text",
              },
              {
                "id": "call_1",
                "input": {
                  "city": "Paris",
                },
                "name": "get_weather",
                "type": "tool_use",
              },
              {
                "id": "call_2",
                "input": {
                  "input": "not json",
                },
                "name": "get_time",
                "type": "tool_use",
              },
            ],
            "role": "assistant",
          },
          {
            "content": [
              {
                "content": "18°C",
                "tool_use_id": "call_1",
                "type": "tool_result",
              },
              {
                "content": "no clock",
                "is_error": true,
                "tool_use_id": "call_2",
                "type": "tool_result",
              },
              {
                "text": "Thanks. And tomorrow?",
                "type": "text",
              },
            ],
            "role": "user",
          },
        ],
        "metadata": {
          "user_id": "user-42",
        },
        "model": "claude-sonnet-4-5-20250929",
        "stop_sequences": [
          "END",
        ],
        "stream": true,
        "system": [
          {
            "text": "You are terse.",
            "type": "text",
          },
          {
            "text": "Answer in French.",
            "type": "text",
          },
        ],
        "temperature": 1,
        "thinking": {
          "budget_tokens": 2048,
          "type": "enabled",
        },
        "tool_choice": {
          "disable_parallel_tool_use": true,
          "type": "auto",
        },
        "tools": [
          {
            "description": "Weather by city",
            "input_schema": {
              "properties": {
                "city": {
                  "type": "string",
                },
              },
              "type": "object",
            },
            "name": "get_weather",
            "strict": true,
          },
          {
            "input_schema": {
              "type": "object",
            },
            "name": "get_time",
          },
        ],
      }
    `);
    expect(encoded.warnings).toMatchInlineSnapshot(`
      [
        {
          "details": "only signed Anthropic thinking can be sent back to Anthropic",
          "feature": "messages[1] reasoning",
          "type": "dropped",
        },
        {
          "details": "a system message inside the conversation was moved to the top-level system prompt",
          "feature": "messages[4]",
          "type": "changed",
        },
        {
          "details": "a built-in tool of another vendor",
          "feature": "tool web_search_preview",
          "type": "dropped",
        },
        {
          "details": "1.4 is outside Anthropic's range 0 to 1; sent as 1",
          "feature": "temperature",
          "type": "changed",
        },
        {
          "details": "Anthropic has no equivalent",
          "feature": "presence_penalty",
          "type": "dropped",
        },
        {
          "details": "raised to 3048 to hold the reasoning budget of 2048 tokens",
          "feature": "max_tokens",
          "type": "changed",
        },
        {
          "details": "not expressible for an upstream speaking anthropic-messages",
          "feature": "logprobs",
          "type": "dropped",
        },
      ]
    `);
  });

  it('gives an Anthropic client its own request back (Claude Code: cache breakpoints, system message, server tools)', () => {
    const serverToolUse = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'rain' } };
    const searchResults = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] };
    const searchResult = { type: 'search_result', source: 'https://wiki', title: 'Rain', content: [{ type: 'text', text: 'Rain is water.' }] };
    const body = {
      model: 'claude-sonnet-4-5-20250929',
      max_tokens: 32000,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Fix it.', cache_control: { type: 'ephemeral' } }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Search first.', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'opaque' },
            serverToolUse,
            searchResults,
            { type: 'text', text: 'Found it.' },
            { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.ts' }, caller: { type: 'direct' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'code', cache_control: { type: 'ephemeral' } },
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [searchResult], is_error: false },
            { type: 'text', text: 'Go on.' },
          ],
        },
        { role: 'system', content: [{ type: 'text', text: 'Plan mode is on.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Continue.' }] },
      ],
      system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      tools: [
        { name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } }, cache_control: { type: 'ephemeral' }, defer_loading: true },
        { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
      ],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      temperature: 1,
      output_config: { effort: 'high' },
      thinking: { type: 'adaptive', display: 'summarized' },
      metadata: { user_id: 'user_1' },
      stream: true,
      context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
    };
    const encoded = encodeAnthropicMessagesRequest(decodeAnthropicMessagesRequest(body).request, OPTIONS);
    expect(encoded.warnings).toEqual([]);
    expect(encoded.body).toEqual(body);
  });

  it('sends the default max_tokens when the client gave none, and refuses n > 1', () => {
    expect(encodeAnthropicMessagesRequest(request({}), OPTIONS).body).toEqual({
      model: OPTIONS.model,
      max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
    expect(ANTHROPIC_DEFAULT_MAX_TOKENS).toBe(8192);
    expect(() => encodeAnthropicMessagesRequest(request({ n: 2 }), OPTIONS)).toThrow(expect.objectContaining({ code: 'invalid_request', status: 400, param: 'n' }));
  });

  it.each<[string, Partial<GenerateRequest>, Record<string, unknown>, string[]]>([
    ['an effort', { reasoning: { effort: 'medium' } }, { thinking: { type: 'adaptive' }, output_config: { effort: 'medium' } }, []],
    ['minimal effort', { reasoning: { effort: 'minimal' } }, { thinking: { type: 'adaptive' }, output_config: { effort: 'low' } }, ['changed reasoning effort']],
    ["effort 'none'", { reasoning: { enabled: false, effort: 'none' } }, { thinking: { type: 'disabled' } }, []],
    ['reasoning on, no detail', { reasoning: { enabled: true } }, { thinking: { type: 'adaptive' } }, []],
    ['a budget under the minimum', { reasoning: { budgetTokens: 500 } }, { thinking: { type: 'enabled', budget_tokens: 1024 } }, ['changed reasoning budget']],
    ['a budget over the default max_tokens', { reasoning: { budgetTokens: 10000 } }, { max_tokens: 18192, thinking: { type: 'enabled', budget_tokens: 10000 } }, []],
    ['a temperature below 0', { temperature: -1 }, { temperature: 0 }, ['changed temperature']],
    ['JSON mode without a schema', { responseFormat: { type: 'json' } }, {}, ['unsupported response_format']],
    ['a JSON schema', { responseFormat: { type: 'json', schema: { type: 'object' } } }, { output_config: { format: { type: 'json_schema', schema: { type: 'object' } } } }, []],
    ['OpenAI metadata and a seed', { metadata: { run: '1' }, seed: 7 }, {}, ['dropped seed', 'dropped metadata']],
    ['a required tool call', { tools: [ECHO], toolChoice: { type: 'required' } }, { tools: [ECHO_WIRE], tool_choice: { type: 'any' } }, []],
    ['a named tool, no parallel calls', { tools: [ECHO], toolChoice: { type: 'tool', toolName: 'echo' }, parallelToolCalls: false }, { tools: [ECHO_WIRE], tool_choice: { type: 'tool', name: 'echo', disable_parallel_tool_use: true } }, []],
    ['no tool choice without tools', { toolChoice: { type: 'none' } }, {}, []],
    [
      'reasoning with a forced tool call',
      { tools: [ECHO], toolChoice: { type: 'required' }, reasoning: { effort: 'high' } },
      { tools: [ECHO_WIRE], tool_choice: { type: 'any' }, output_config: { effort: 'high' } },
      ['dropped reasoning'],
    ],
    [
      'reasoning with sampling changes',
      { reasoning: { budgetTokens: 2000 }, temperature: 0.2, topK: 5, topP: 0.95 },
      { thinking: { type: 'enabled', budget_tokens: 2000 }, top_p: 0.95 },
      ['dropped temperature', 'dropped top_k'],
    ],
  ])('encodes %s', (_name, fields, expected, warnings) => {
    const encoded = encodeAnthropicMessagesRequest(request(fields), OPTIONS);
    expect(encoded.body).toEqual({ model: OPTIONS.model, max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], ...expected });
    expect(encoded.warnings.map((warning) => `${warning.type} ${warning.feature}`)).toEqual(warnings);
  });

  it('merges same-role turns with tool results first, skips empty text, and warns about what it changes', () => {
    const encoded = encodeAnthropicMessagesRequest(
      request({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'See the result.' }, { type: 'text', text: '' }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'f', content: [{ type: 'text', text: '' }] }] },
          { role: 'assistant', content: [{ type: 'file', mediaType: 'image/png', data: { type: 'base64', base64: 'x' } }] },
          { role: 'user', content: [{ type: 'file', mediaType: 'audio/wav', data: { type: 'base64', base64: 'UklG' } }, { type: 'text', text: 'Hear this.' }] },
        ],
      }),
      OPTIONS,
    );
    expect(encoded.body.messages).toEqual([
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1' }, { type: 'text', text: 'See the result.' }, { type: 'text', text: 'Hear this.' }] },
    ]);
    expect(encoded.warnings).toEqual([
      { type: 'changed', feature: 'messages[1]', details: 'tool results were moved before the other content of the user turn' },
      { type: 'dropped', feature: 'messages[2] file', details: 'Anthropic assistant turns hold no files' },
      { type: 'dropped', feature: 'messages[3] file audio/wav', details: 'Anthropic takes images, PDFs and plain text documents only' },
    ]);
  });

  it('keeps only signed Anthropic reasoning and wraps schemas that are not objects', () => {
    const encoded = encodeAnthropicMessagesRequest(
      request({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'signed', signature: 'sig', protocolMetadata: { 'anthropic-messages': {} } },
              { type: 'reasoning', text: 'a Gemini thought', signature: 'gemini-signature' },
              { type: 'reasoning', text: 'another' },
              { type: 'text', text: 'Hello.' },
            ],
          },
        ],
        tools: [{ type: 'function', name: 'echo', inputSchema: { type: 'string' } }],
      }),
      OPTIONS,
    );
    expect(encoded.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'signed', signature: 'sig' }, { type: 'text', text: 'Hello.' }] },
    ]);
    expect(encoded.body.tools).toEqual([{ name: 'echo', input_schema: { type: 'object', properties: {} } }]);
    expect(encoded.warnings.map((warning) => `${warning.type} ${warning.feature}`)).toEqual(['dropped messages[1] reasoning', 'changed tool echo']);
  });

  it('turns thinking off when the last assistant turn with tool calls lost its thinking block (Gemini CLI drops thoughts)', () => {
    const toolTurn = (first: 'text' | 'reasoning'): GenerateRequest['messages'] => [
      { role: 'user', content: [{ type: 'text', text: 'Read note.txt' }] },
      {
        role: 'assistant',
        content: [
          first === 'text' ? { type: 'text', text: 'Reading it.' } : { type: 'reasoning', text: 'I read it.', signature: 'sig', protocolMetadata: { 'anthropic-messages': {} } },
          { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'echo', input: '{"text":"x"}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'echo', content: [{ type: 'text', text: 'x' }] }] },
    ];
    const reasoning = { effort: 'high' } as const;
    const lost = encodeAnthropicMessagesRequest(request({ messages: toolTurn('text'), tools: [ECHO], reasoning, topK: 40 }), OPTIONS);
    expect(lost.body.thinking).toBeUndefined();
    expect(lost.body.top_k).toBe(40);
    expect(lost.warnings).toEqual([
      { type: 'dropped', feature: 'reasoning', details: 'the last assistant turn with tool calls came back without its thinking block, which Anthropic requires while thinking' },
    ]);
    const kept = encodeAnthropicMessagesRequest(request({ messages: toolTurn('reasoning'), tools: [ECHO], reasoning }), OPTIONS);
    expect([kept.body.thinking, kept.warnings]).toEqual([{ type: 'adaptive' }, []]);
  });
});
