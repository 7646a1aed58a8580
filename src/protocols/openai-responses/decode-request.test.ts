import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import { openAIResponsesCodec } from './codec.js';
import { decodeOpenAIResponsesRequest } from './decode-request.js';

const SHELL_PARAMETERS = { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'], additionalProperties: false };

/** The shape Codex CLI sends: stateless (store: false), with encrypted reasoning and its own tools. */
const CODEX_REQUEST = {
  model: 'gpt-5.1-codex',
  instructions: 'You are Codex, a coding agent.',
  input: [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions>workspace-write</permissions>' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>cwd=/repo</environment_context>' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List the files.' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBOR', detail: 'high' }] },
    { type: 'reasoning', summary: [{ type: 'summary_text', text: '**Listing files**' }], content: null, encrypted_content: 'gAAAAB-encrypted' },
    { type: 'message', role: 'assistant', id: 'msg_1', phase: 'commentary', content: [{ type: 'output_text', text: 'Listing them.' }] },
    { type: 'function_call', id: 'fc_1', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'call_1' },
    { type: 'function_call_output', call_id: 'call_1', output: 'README.md\nsrc' },
    { type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' },
    { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done' },
    { type: 'message', role: 'developer', content: 'Approval mode changed.' },
    { role: 'user', content: 'Now run the tests.' },
  ],
  tools: [
    { type: 'function', name: 'shell', description: 'Runs a command', strict: false, parameters: SHELL_PARAMETERS },
    { type: 'custom', name: 'apply_patch', description: 'Edits files', format: { type: 'grammar', syntax: 'lark', definition: 'start: x' } },
    { type: 'web_search' },
  ],
  tool_choice: 'auto',
  parallel_tool_calls: false,
  reasoning: { effort: 'medium', summary: 'auto' },
  store: false,
  stream: true,
  include: ['reasoning.encrypted_content'],
  prompt_cache_key: 'session-123',
  text: { verbosity: 'low' },
};

const own = (metadata: Record<string, unknown>) => ({ protocolMetadata: { 'openai-responses': metadata } });

/** A custom (freeform) tool for upstreams of other protocols: a function of one string, `input`. */
const CUSTOM_TOOL_SCHEMA = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The raw text input of this freeform tool.' } },
  required: ['input'],
  additionalProperties: false,
};

describe('decodeOpenAIResponsesRequest', () => {
  it('decodes a Codex CLI request', () => {
    expect(decodeOpenAIResponsesRequest(CODEX_REQUEST)).toEqual({
      warnings: [],
      request: {
        model: 'gpt-5.1-codex',
        system: [
          { type: 'text', text: 'You are Codex, a coding agent.', ...own({ source: 'instructions' }) },
          { type: 'text', text: '<permissions>workspace-write</permissions>' },
        ],
        messages: [
          { role: 'user', content: [{ type: 'text', text: '<environment_context>cwd=/repo</environment_context>' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'List the files.' },
              { type: 'file', mediaType: 'image/png', data: { type: 'base64', base64: 'iVBOR' }, ...own({ detail: 'high' }) },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: '**Listing files**', ...own({ encryptedContent: 'gAAAAB-encrypted' }) },
              { type: 'text', text: 'Listing them.', ...own({ itemId: 'msg_1', phase: 'commentary' }) },
              { type: 'tool-call', toolCallId: 'call_1', toolName: 'shell', input: '{"command":["ls"]}', ...own({ itemId: 'fc_1' }) },
            ],
          },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'shell', content: [{ type: 'text', text: 'README.md\nsrc' }] }] },
          // A custom tool's text travels as the `{input}` arguments of a function call.
          {
            role: 'assistant',
            content: [{ type: 'tool-call', toolCallId: 'call_2', toolName: 'apply_patch', input: '{"input":"*** Begin Patch"}', ...own({ itemId: 'ctc_1', custom: true }) }],
          },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_2', toolName: 'apply_patch', content: [{ type: 'text', text: 'Done' }] }] },
          { role: 'system', content: [{ type: 'text', text: 'Approval mode changed.' }] },
          { role: 'user', content: [{ type: 'text', text: 'Now run the tests.' }] },
        ],
        tools: [
          { type: 'function', name: 'shell', description: 'Runs a command', strict: false, inputSchema: SHELL_PARAMETERS },
          {
            type: 'function',
            name: 'apply_patch',
            description: 'Edits files\n\nThe input follows this lark grammar:\nstart: x',
            inputSchema: CUSTOM_TOOL_SCHEMA,
            ...own({ customTool: CODEX_REQUEST.tools[1] }),
          },
          { type: 'provider', protocol: 'openai-responses', name: 'web_search', raw: { type: 'web_search' } },
        ],
        toolChoice: { type: 'auto' },
        parallelToolCalls: false,
        reasoning: { effort: 'medium', includeThoughts: true },
        stream: true,
        extensions: {
          'openai-responses': {
            store: false,
            include: ['reasoning.encrypted_content'],
            prompt_cache_key: 'session-123',
            text: { verbosity: 'low' },
          },
        },
      },
    });
  });

  it("takes the tools of Codex's additional_tools items and namespaces, custom tools as functions of {input}", () => {
    const exec = { type: 'custom', name: 'exec', description: 'Run JavaScript', format: { type: 'grammar', syntax: 'lark', definition: 'start: SOURCE' } };
    const wait = { type: 'function', name: 'wait', description: 'Waits', strict: false, parameters: { type: 'object', properties: {} } };
    const spawn = { type: 'function', name: 'spawn_agent', strict: false, parameters: { type: 'object', properties: { task: { type: 'string' } } } };
    const { request, warnings } = decodeOpenAIResponsesRequest({
      model: 'gpt-6.1-sol',
      input: [
        { type: 'additional_tools', id: 'at_1', role: 'developer', tools: [{ type: 'namespace', name: 'functions', description: '', tools: [exec, wait] }] },
        { type: 'message', id: 'msg_1', role: 'developer', content: [{ type: 'input_text', text: 'You are Codex.' }] },
        { type: 'message', id: 'msg_2', role: 'user', content: [{ type: 'input_text', text: 'Read note.txt' }] },
        { type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_1', name: 'exec', input: 'text(1)' },
        { type: 'custom_tool_call_output', id: 'ctco_1', call_id: 'call_1', output: [{ type: 'input_text', text: 'Script completed' }] },
      ],
      tools: [{ type: 'namespace', name: 'collaboration', description: '', tools: [spawn] }, { type: 'web_search' }],
    });
    expect(warnings).toEqual([]);
    expect(request.system).toEqual([{ type: 'text', text: 'You are Codex.' }]);
    expect(request.tools).toEqual([
      { type: 'function', name: 'spawn_agent', strict: false, inputSchema: spawn.parameters },
      { type: 'provider', protocol: 'openai-responses', name: 'web_search', raw: { type: 'web_search' } },
      { type: 'function', name: 'exec', description: 'Run JavaScript\n\nThe input follows this lark grammar:\nstart: SOURCE', inputSchema: CUSTOM_TOOL_SCHEMA, ...own({ customTool: exec }) },
      { type: 'function', name: 'wait', description: 'Waits', strict: false, inputSchema: wait.parameters },
    ]);
    expect(request.messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'exec', input: '{"input":"text(1)"}', ...own({ itemId: 'ctc_1', custom: true }) }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'exec', content: [{ type: 'text', text: 'Script completed' }] }] },
    ]);
    expect(request.extensions['openai-responses']).toBeUndefined();
  });

  it('decodes string input, json_schema format, a named tool choice and other tool choices', () => {
    const { request } = decodeOpenAIResponsesRequest({
      model: 'm',
      input: 'Hi',
      text: { format: { type: 'json_schema', name: 'City', schema: { type: 'object' }, strict: true } },
      tool_choice: { type: 'function', name: 'lookup' },
      reasoning: { effort: 'none' },
      max_output_tokens: 100,
      temperature: 0.2,
      top_p: 0.9,
      metadata: { a: 'b' },
      safety_identifier: 'user-1',
    });
    expect(request).toMatchObject({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      responseFormat: { type: 'json', name: 'City', schema: { type: 'object' }, strict: true },
      toolChoice: { type: 'tool', toolName: 'lookup' },
      reasoning: { effort: 'none', enabled: false },
      maxOutputTokens: 100,
      temperature: 0.2,
      topP: 0.9,
      metadata: { a: 'b' },
      user: 'user-1',
    });
    const allowed = { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'f' }] };
    const decoded = decodeOpenAIResponsesRequest({ model: 'm', input: 'Hi', tool_choice: allowed, text: { format: { type: 'json_object' } } }).request;
    expect([decoded.toolChoice, decoded.extensions['openai-responses'], decoded.responseFormat]).toEqual([undefined, { tool_choice: allowed }, { type: 'json' }]);
  });

  it('keeps function outputs with images, and later system messages in place', () => {
    const { request } = decodeOpenAIResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'Look' },
        { role: 'system', content: 'Be careful.' },
        { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: 'A chart:' }, { type: 'input_image', image_url: 'https://x.test/a.png' }] },
        { type: 'function_call_output', call_id: 'd', output: '' },
      ],
    });
    expect(request.system).toEqual([]);
    expect(request.messages.slice(1)).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Be careful.' }] },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c', toolName: '', content: [{ type: 'text', text: 'A chart:' }, { type: 'file', mediaType: 'image/*', data: { type: 'url', url: 'https://x.test/a.png' } }] },
          { type: 'tool-result', toolCallId: 'd', toolName: '', content: [{ type: 'text', text: '' }] },
        ],
      },
    ]);
  });

  it('treats explicit nulls as absent', () => {
    const { request } = decodeOpenAIResponsesRequest({ model: 'm', input: 'x', previous_response_id: null, conversation: null, store: null, temperature: null, tools: null });
    expect(request).toEqual({ model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools: [], stream: false, extensions: {} });
  });

  const INVALID: Array<[string, Record<string, unknown>, string]> = [
    ['no model', { input: 'x' }, 'model'],
    ['no input', { model: 'm' }, 'input'],
    ['input of the wrong type', { model: 'm', input: 5 }, 'input'],
    ['an unknown role', { model: 'm', input: [{ role: 'robot', content: 'x' }] }, 'input[0].role'],
    ['an uploaded image id', { model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1', detail: 'auto' }] }] }, 'input[0].content[0].image_url'],
    ['an uploaded file id', { model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }] }, 'input[0].content[0].file_data'],
    ['an image in a system message', { model: 'm', input: [{ role: 'system', content: [{ type: 'input_image', image_url: 'x' }] }] }, 'input[0].content[0].type'],
    ['output_text from the user', { model: 'm', input: [{ role: 'user', content: [{ type: 'output_text', text: 'x' }] }] }, 'input[0].content[0].type'],
    ['a function call without call_id', { model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }, 'input[0].call_id'],
    ['a function output without output', { model: 'm', input: [{ type: 'function_call_output', call_id: 'c' }] }, 'input[0].output'],
    ['a reasoning summary that is not a list', { model: 'm', input: [{ type: 'reasoning', summary: 'x' }] }, 'input[0].summary'],
    ['a Chat-style function tool', { model: 'm', input: 'x', tools: [{ type: 'function', function: { name: 'f' } }] }, 'tools[0].name'],
    ['a tool choice of the wrong type', { model: 'm', input: 'x', tool_choice: 5 }, 'tool_choice'],
    ['max_output_tokens 0', { model: 'm', input: 'x', max_output_tokens: 0 }, 'max_output_tokens'],
    ['fractional max_output_tokens', { model: 'm', input: 'x', max_output_tokens: 1.5 }, 'max_output_tokens'],
    ['temperature above 2', { model: 'm', input: 'x', temperature: 3 }, 'temperature'],
    ['top_p above 1', { model: 'm', input: 'x', top_p: 2 }, 'top_p'],
    ['a json_schema without name', { model: 'm', input: 'x', text: { format: { type: 'json_schema', schema: {} } } }, 'text.format.name'],
    ['an unknown format', { model: 'm', input: 'x', text: { format: { type: 'xml' } } }, 'text.format.type'],
    ['an unknown effort', { model: 'm', input: 'x', reasoning: { effort: 'extreme' } }, 'reasoning.effort'],
    ['a metadata value that is not a string', { model: 'm', input: 'x', metadata: { a: 1 } }, 'metadata.a'],
    ['stream that is not a boolean', { model: 'm', input: 'x', stream: 'yes' }, 'stream'],
  ];

  it.each(INVALID)('rejects %s with a 400 naming the field', (_name, body, param) => {
    let thrown: unknown;
    try {
      decodeOpenAIResponsesRequest(body);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect(thrown).toMatchObject({ code: 'invalid_request', status: 400, param });
  });

  it.each([
    ['previous_response_id', { model: 'm', input: 'x', previous_response_id: 'resp_1' }, 'previous_response_id'],
    ['conversation', { model: 'm', input: 'x', conversation: { id: 'conv_1' } }, 'conversation'],
    ['an item_reference', { model: 'm', input: [{ role: 'user', content: 'x' }, { type: 'item_reference', id: 'msg_1' }] }, 'input[1]'],
  ])('marks %s as servable by a Responses upstream only, and keeps it for one', (_name, body, param) => {
    const decoded = decodeOpenAIResponsesRequest(body);
    expect(decoded.sameProtocolOnly).toEqual({ param, message: expect.stringContaining('state stored by OpenAI') });
    const reencoded = openAIResponsesCodec.encodeRequest(decoded.request, { model: 'm' }).body;
    if (param === 'input[1]') expect(reencoded.input).toContainEqual({ type: 'item_reference', id: 'msg_1' });
    else expect(reencoded[param]).toEqual((body as Record<string, unknown>)[param]);
  });
});
