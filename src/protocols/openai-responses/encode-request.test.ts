import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../core/generate-request.js';
import { openAIResponsesCodec } from './codec.js';

/** A request as another protocol's client sends it (Claude Code, say), translated for a Responses upstream. */
const TRANSLATED: GenerateRequest = {
  model: 'claude-sonnet',
  system: [{ type: 'text', text: 'You are a helpful agent.' }, { type: 'text', text: 'Answer briefly.' }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in these?' },
        { type: 'file', mediaType: 'image/jpeg', data: { type: 'base64', base64: '/9j/4AAQ' } },
        { type: 'file', mediaType: 'application/pdf', data: { type: 'base64', base64: 'JVBERi0x' }, filename: 'report.pdf' },
        { type: 'file', mediaType: 'audio/wav', data: { type: 'base64', base64: 'UklGR' } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Let me look.', signature: 'anthropic-signature' },
        { type: 'text', text: 'Checking the weather.' },
        { type: 'tool-call', toolCallId: 'toolu_01', toolName: 'get_weather', input: '{"city":"Paris"}' },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_01', toolName: 'get_weather', content: [{ type: 'text', text: 'Service down' }], isError: true }] },
    { role: 'system', content: [{ type: 'text', text: 'Retry once.' }] },
  ],
  tools: [
    { type: 'function', name: 'get_weather', description: 'Weather by city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
    { type: 'provider', protocol: 'anthropic-messages', name: 'web_search', raw: { type: 'web_search_20250305', name: 'web_search' } },
  ],
  toolChoice: { type: 'required' },
  parallelToolCalls: true,
  maxOutputTokens: 8,
  temperature: 0.7,
  topK: 40,
  stopSequences: ['END'],
  responseFormat: { type: 'json', name: 'Answer', schema: { type: 'object' }, strict: true },
  reasoning: { budgetTokens: 10000, includeThoughts: true },
  stream: true,
  user: 'user-9',
  metadata: { session: 's1' },
  extensions: { 'anthropic-messages': { cache_control: { type: 'ephemeral' } } },
};

describe('encodeOpenAIResponsesRequest', () => {
  it('translates a request from another protocol', () => {
    const encoded = openAIResponsesCodec.encodeRequest(TRANSLATED, { model: 'gpt-5.1' });
    expect(encoded.path).toBe('/responses');
    expect(encoded.body).toMatchInlineSnapshot(`
      {
        "include": [
          "reasoning.encrypted_content",
        ],
        "input": [
          {
            "content": [
              {
                "text": "What is in these?",
                "type": "input_text",
              },
              {
                "detail": "auto",
                "image_url": "data:image/jpeg;base64,/9j/4AAQ",
                "type": "input_image",
              },
              {
                "file_data": "data:application/pdf;base64,JVBERi0x",
                "filename": "report.pdf",
                "type": "input_file",
              },
            ],
            "role": "user",
            "type": "message",
          },
          {
            "content": [
              {
                "annotations": [],
                "text": "Checking the weather.",
                "type": "output_text",
              },
            ],
            "role": "assistant",
            "type": "message",
          },
          {
            "arguments": "{"city":"Paris"}",
            "call_id": "toolu_01",
            "name": "get_weather",
            "type": "function_call",
          },
          {
            "call_id": "toolu_01",
            "output": "Error: Service down",
            "type": "function_call_output",
          },
          {
            "content": "Retry once.",
            "role": "developer",
            "type": "message",
          },
        ],
        "instructions": "You are a helpful agent.

      Answer briefly.",
        "max_output_tokens": 16,
        "metadata": {
          "session": "s1",
        },
        "model": "gpt-5.1",
        "parallel_tool_calls": true,
        "reasoning": {
          "effort": "medium",
          "summary": "auto",
        },
        "store": false,
        "stream": true,
        "temperature": 0.7,
        "text": {
          "format": {
            "name": "Answer",
            "schema": {
              "type": "object",
            },
            "strict": true,
            "type": "json_schema",
          },
        },
        "tool_choice": "required",
        "tools": [
          {
            "description": "Weather by city",
            "name": "get_weather",
            "parameters": {
              "properties": {
                "city": {
                  "type": "string",
                },
              },
              "type": "object",
            },
            "strict": false,
            "type": "function",
          },
        ],
        "user": "user-9",
      }
    `);
    // The wording of the foreign-extension warning belongs to foreign-extensions.ts.
    expect(encoded.warnings).toContainEqual(expect.objectContaining({ type: 'dropped', feature: 'cache_control' }));
    expect(encoded.warnings.filter((warning) => warning.feature !== 'cache_control')).toMatchInlineSnapshot(`
      [
        {
          "details": "Responses input has no audio part",
          "feature": "messages[0] file audio/wav",
          "type": "dropped",
        },
        {
          "details": "only reasoning with OpenAI encrypted content can be sent back to a Responses upstream",
          "feature": "messages[1] reasoning",
          "type": "dropped",
        },
        {
          "details": "a built-in tool of another vendor",
          "feature": "tool web_search",
          "type": "dropped",
        },
        {
          "details": "8 raised to OpenAI's minimum of 16",
          "feature": "max_output_tokens",
          "type": "changed",
        },
        {
          "details": "OpenAI Responses has no top_k",
          "feature": "top_k",
          "type": "dropped",
        },
        {
          "details": "OpenAI Responses has no stop sequences",
          "feature": "stop_sequences",
          "type": "dropped",
        },
        {
          "details": "10000 tokens sent as reasoning.effort 'medium'",
          "feature": "reasoning budget",
          "type": "changed",
        },
      ]
    `);
  });

  it('gives a Responses client’s own request back in its own terms', () => {
    const body = {
      model: 'gpt-5.1-codex',
      instructions: 'You are Codex.',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix it.' }] },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Plan' }], encrypted_content: 'gAAAA' },
        { type: 'message', role: 'assistant', phase: 'commentary', content: [{ type: 'output_text', text: 'On it.' }] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'shell', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
        { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: 'patch' },
        { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Thanks.' }] },
      ],
      tools: [{ type: 'function', name: 'shell', parameters: { type: 'object' }, strict: false }, { type: 'custom', name: 'apply_patch' }],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      reasoning: { effort: 'high', summary: 'auto' },
      store: false,
      stream: true,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'session-1',
      text: { verbosity: 'low' },
    };
    const { request } = openAIResponsesCodec.decodeRequest(body, {});
    const encoded = openAIResponsesCodec.encodeRequest(request, { model: 'gpt-5.1-codex' });
    expect(encoded.warnings).toEqual([]);
    expect(encoded.body).toEqual({
      ...body,
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix it.' }] },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Plan' }], encrypted_content: 'gAAAA' },
        { type: 'message', role: 'assistant', phase: 'commentary', content: [{ type: 'output_text', text: 'On it.', annotations: [] }] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'shell', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
        body.input[5],
        body.input[6],
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Thanks.' }] },
      ],
      tools: [{ type: 'function', name: 'shell', description: null, parameters: { type: 'object' }, strict: false }, { type: 'custom', name: 'apply_patch' }],
    });
  });

  it('drops reasoning that OpenAI cannot take back, with a warning', () => {
    const request: GenerateRequest = {
      model: 'm',
      system: [],
      messages: [{ role: 'assistant', content: [{ type: 'reasoning', text: 'x', protocolMetadata: { 'openai-responses': { itemId: 'rs_1' } } }] }],
      tools: [],
      stream: false,
      extensions: {},
    };
    const encoded = openAIResponsesCodec.encodeRequest(request, { model: 'm' });
    expect(encoded.body.input).toEqual([]);
    expect(encoded.warnings).toEqual([{ type: 'dropped', feature: 'messages[0] reasoning', details: 'only reasoning with OpenAI encrypted content can be sent back to a Responses upstream' }]);
    // With store: true the upstream keeps items, so an id alone refers to one.
    const stored = openAIResponsesCodec.encodeRequest({ ...request, extensions: { 'openai-responses': { store: true } } }, { model: 'm' });
    expect(stored.body.input).toEqual([{ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'x' }] }]);
  });

  it('sends an effort as reasoning.effort, dropping a budget beside it with a warning', () => {
    const encoded = openAIResponsesCodec.encodeRequest({ ...TRANSLATED, reasoning: { effort: 'high', budgetTokens: 9000 } }, { model: 'm' });
    expect(encoded.body.reasoning).toMatchObject({ effort: 'high' });
    expect(encoded.warnings).toContainEqual({ type: 'dropped', feature: 'reasoning budget', details: "9000 tokens not sent: the upstream takes reasoning.effort 'high' only" });
  });

  it('rejects n > 1, which Responses cannot serve', () => {
    expect(() => openAIResponsesCodec.encodeRequest({ ...TRANSLATED, n: 2 }, { model: 'm' })).toThrow(expect.objectContaining({ status: 400, param: 'n' }));
  });

  it('names the passthrough path with the client’s query string', () => {
    expect(openAIResponsesCodec.preparePassthrough({ model: 'alias', input: 'x' }, { model: 'gpt-5', stream: true, search: '?x=1' })).toEqual({
      path: '/responses?x=1',
      body: { model: 'gpt-5', input: 'x' },
    });
  });
});
