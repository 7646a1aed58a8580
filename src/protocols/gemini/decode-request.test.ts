import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import { decodeGeminiRequest } from './decode-request.js';
import { encodeGeminiRequest } from './encode-request.js';

/** A request as Gemini CLI sends it: JSON Schema tools, thinking level, calls echoed with id and signature. */
const GEMINI_CLI_REQUEST = {
  contents: [
    { role: 'user', parts: [{ text: 'List the files in src.' }] },
    {
      role: 'model',
      parts: [
        { text: 'Listing them.', thoughtSignature: 'c2lnLXRleHQ=' },
        { functionCall: { id: 'call-abc', name: 'list_directory', args: { path: 'src' } }, thoughtSignature: 'c2lnLWNhbGw=' },
      ],
    },
    { role: 'user', parts: [{ functionResponse: { id: 'call-abc', name: 'list_directory', response: { output: 'a.ts\nb.ts' } } }] },
  ],
  systemInstruction: { role: 'user', parts: [{ text: 'You are Gemini CLI.' }] },
  tools: [
    {
      functionDeclarations: [
        {
          name: 'list_directory',
          description: 'Lists a directory.',
          parametersJsonSchema: { type: 'object', properties: { path: { type: 'string', description: 'The path.' } }, required: ['path'] },
        },
      ],
    },
  ],
  generationConfig: { temperature: 0, topP: 1, thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' } },
};

/** Gemini CLI's JSON requests (`generateJson`) send responseJsonSchema with upper-case types. */
const NEXT_SPEAKER_SCHEMA = {
  type: 'OBJECT',
  properties: { reasoning: { type: 'STRING' }, next_speaker: { type: 'STRING', enum: ['user', 'model'] } },
  required: ['reasoning', 'next_speaker'],
};

const decode = (body: unknown, stream = false) => decodeGeminiRequest(body, { pathModel: 'gemini-2.5-pro', stream });

describe('decodeGeminiRequest', () => {
  it('decodes a Gemini CLI request: the echoed call keeps its id and signature, the response its id', () => {
    expect(decode(GEMINI_CLI_REQUEST, true)).toEqual({
      request: {
        model: 'gemini-2.5-pro',
        stream: true,
        system: [{ type: 'text', text: 'You are Gemini CLI.' }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'List the files in src.' }] },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Listing them.', protocolMetadata: { gemini: { thoughtSignature: 'c2lnLXRleHQ=' } } },
              {
                type: 'tool-call',
                toolCallId: 'call-abc',
                toolName: 'list_directory',
                input: '{"path":"src"}',
                protocolMetadata: { gemini: { functionCallId: 'call-abc', thoughtSignature: 'c2lnLWNhbGw=' } },
              },
            ],
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'call-abc',
                toolName: 'list_directory',
                content: [{ type: 'text', text: 'a.ts\nb.ts' }],
                protocolMetadata: { gemini: { functionResponseId: 'call-abc' } },
              },
            ],
          },
        ],
        tools: [
          {
            type: 'function',
            name: 'list_directory',
            description: 'Lists a directory.',
            inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'The path.' } }, required: ['path'] },
          },
        ],
        temperature: 0,
        topP: 1,
        reasoning: { effort: 'high', includeThoughts: true },
        extensions: {},
      },
      warnings: [],
    });
  });

  it('lower-cases the types of an upper-case responseJsonSchema for the core and keeps it as sent', () => {
    const { request } = decode({ contents: [{ role: 'user', parts: [{ text: 'Who speaks next?' }] }], generationConfig: { responseMimeType: 'application/json', responseJsonSchema: NEXT_SPEAKER_SCHEMA } });
    expect(request.responseFormat).toEqual({
      type: 'json',
      schema: {
        type: 'object',
        properties: { reasoning: { type: 'string' }, next_speaker: { type: 'string', enum: ['user', 'model'] } },
        required: ['reasoning', 'next_speaker'],
      },
      protocolMetadata: { gemini: { responseJsonSchema: NEXT_SPEAKER_SCHEMA } },
    });
  });

  it('decodes a snake_case REST body: media, OpenAPI schemas, built-in tools, tool config, extensions', () => {
    const { request, warnings } = decode({
      system_instruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        {
          parts: [
            { text: 'Describe these.' },
            { inline_data: { mime_type: 'image/jpeg', data: '/9j/4A==' } },
            { file_data: { mime_type: 'application/pdf', file_uri: 'https://generativelanguage.googleapis.com/v1beta/files/abc' }, video_metadata: { start_offset: '1s' } },
          ],
        },
      ],
      generation_config: {
        max_output_tokens: 100,
        stop_sequences: ['END'],
        candidate_count: 2,
        top_k: 40,
        seed: 7,
        presence_penalty: 0.5,
        frequency_penalty: -0.5,
        response_mime_type: 'application/json',
        response_schema: { type: 'OBJECT', properties: { name: { type: 'STRING', nullable: true } }, propertyOrdering: ['name'] },
        thinking_config: { thinking_budget: 0 },
        response_modalities: ['TEXT'],
      },
      safety_settings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      cached_content: 'cachedContents/xyz',
      tools: [{ google_search: {} }, { code_execution: {} }, { function_declarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { x: { type: 'INTEGER' } } } }] }],
      tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['f'] } },
    });
    expect(warnings).toEqual([]);
    expect(request).toEqual({
      model: 'gemini-2.5-pro',
      stream: false,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe these.' },
            { type: 'file', mediaType: 'image/jpeg', data: { type: 'base64', base64: '/9j/4A==' } },
            {
              type: 'file',
              mediaType: 'application/pdf',
              data: { type: 'url', url: 'https://generativelanguage.googleapis.com/v1beta/files/abc' },
              protocolMetadata: { gemini: { partFields: { videoMetadata: { start_offset: '1s' } } } },
            },
          ],
        },
      ],
      tools: [
        { type: 'provider', protocol: 'gemini', name: 'googleSearch', raw: { googleSearch: {} } },
        { type: 'provider', protocol: 'gemini', name: 'codeExecution', raw: { codeExecution: {} } },
        {
          type: 'function',
          name: 'f',
          inputSchema: { type: 'object', properties: { x: { type: 'integer' } } },
          protocolMetadata: { gemini: { declarationFields: { parameters: { type: 'OBJECT', properties: { x: { type: 'INTEGER' } } } } } },
        },
      ],
      toolChoice: { type: 'tool', toolName: 'f' },
      maxOutputTokens: 100,
      stopSequences: ['END'],
      n: 2,
      topK: 40,
      seed: 7,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
      responseFormat: {
        type: 'json',
        schema: { type: 'object', properties: { name: { type: ['string', 'null'] } } },
        protocolMetadata: { gemini: { responseSchema: { type: 'OBJECT', properties: { name: { type: 'STRING', nullable: true } }, propertyOrdering: ['name'] } } },
      },
      reasoning: { enabled: false },
      extensions: {
        gemini: {
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
          cachedContent: 'cachedContents/xyz',
          'generationConfig.responseModalities': ['TEXT'],
        },
      },
    });
  });

  it('synthesizes ids for calls without one and matches responses by name and position', () => {
    const { request, warnings } = decode({
      contents: [
        { role: 'user', parts: [{ text: 'Go.' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'f', args: { n: 1 } } },
            { functionCall: { name: 'g' } },
            { functionCall: { name: 'f', args: { n: 2 } } },
            { executableCode: { language: 'PYTHON', code: 'print(2)' } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'g', response: { output: 'G' } } },
            { functionResponse: { name: 'f', response: { error: 'boom' } } },
            { functionResponse: { name: 'f', response: { output: { n: 1 } } } },
            { text: 'Continue.' },
          ],
        },
      ],
    });
    expect(request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'call_1_0', toolName: 'f', input: '{"n":1}' },
          { type: 'tool-call', toolCallId: 'call_1_1', toolName: 'g', input: '{}' },
          { type: 'tool-call', toolCallId: 'call_1_2', toolName: 'f', input: '{"n":2}' },
          { type: 'text', text: '\n```python\nprint(2)\n```\n', protocolMetadata: { gemini: { part: { executableCode: { language: 'PYTHON', code: 'print(2)' } } } } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call_1_1', toolName: 'g', content: [{ type: 'text', text: 'G' }] },
          { type: 'tool-result', toolCallId: 'call_1_0', toolName: 'f', content: [{ type: 'text', text: 'boom' }], isError: true },
          { type: 'tool-result', toolCallId: 'call_1_2', toolName: 'f', content: [{ type: 'text', text: '{"n":1}' }], protocolMetadata: { gemini: { response: { output: { n: 1 } } } } },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Continue.' }] },
    ]);
    expect(warnings).toEqual([{ type: 'changed', feature: 'contents[1].parts[3].executableCode', details: 'sent as text to upstreams of other protocols' }]);
  });

  it('maps thinking budgets: -1 is dynamic, a number is the budget; VALIDATED mode is kept for Gemini', () => {
    const base = { contents: [{ parts: [{ text: 'Hi' }] }] };
    expect(decode({ ...base, generationConfig: { thinkingConfig: { thinkingBudget: -1 } } }).request.reasoning).toEqual({ enabled: true });
    expect(decode({ ...base, generationConfig: { thinkingConfig: { thinkingBudget: 2048, thinkingLevel: 'low' } } }).request.reasoning).toEqual({ enabled: true, budgetTokens: 2048, effort: 'low' });
    const validated = decode({ ...base, toolConfig: { functionCallingConfig: { mode: 'VALIDATED' } } }).request;
    expect([validated.toolChoice, validated.extensions]).toEqual([{ type: 'auto' }, { gemini: { 'toolConfig.functionCallingConfig': { mode: 'VALIDATED' } } }]);
    const several = decode({ ...base, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a', 'b'] } } }).request;
    expect([several.toolChoice, several.extensions.gemini]).toEqual([{ type: 'required' }, { 'toolConfig.functionCallingConfig': { mode: 'ANY', allowedFunctionNames: ['a', 'b'] } }]);
  });

  const hello = [{ role: 'user', parts: [{ text: 'Hi' }] }];
  it.each<[string, unknown, string, { pathModel?: string }?]>([
    ['contents missing', {}, 'contents'],
    ['contents empty', { contents: [] }, 'contents'],
    ['the model missing from the path', { contents: hello }, 'model', {}],
    ['more than 5 stop sequences', { contents: hello, generationConfig: { stopSequences: ['1', '2', '3', '4', '5', '6'] } }, 'generationConfig.stopSequences'],
    ['more than 5 stop sequences, snake_case', { contents: hello, generation_config: { stop_sequences: ['1', '2', '3', '4', '5', '6'] } }, 'generation_config.stop_sequences'],
    ['temperature 3', { contents: hello, generationConfig: { temperature: 3 } }, 'generationConfig.temperature'],
    ['maxOutputTokens 0', { contents: hello, generationConfig: { maxOutputTokens: 0 } }, 'generationConfig.maxOutputTokens'],
    ['an unknown thinking level', { contents: hello, generationConfig: { thinkingConfig: { thinkingLevel: 'ULTRA' } } }, 'generationConfig.thinkingConfig.thinkingLevel'],
    ['both response schemas', { contents: hello, generationConfig: { responseSchema: {}, responseJsonSchema: {} } }, 'generationConfig.responseJsonSchema'],
    ['an unknown role', { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, 'contents[0].role'],
    ['a turn without parts', { contents: [{ role: 'user', parts: [] }] }, 'contents[0].parts'],
    ['a part without data', { contents: [{ role: 'user', parts: [{}] }] }, 'contents[0].parts[0]'],
    ['a function call in a user turn', { contents: [{ role: 'user', parts: [{ functionCall: { name: 'f' } }] }] }, 'contents[0].parts[0].functionCall'],
    ['inline data without a MIME type', { contents: [{ role: 'user', parts: [{ inlineData: { data: 'AAAA' } }] }] }, 'contents[0].parts[0].inlineData.mimeType'],
    ['a function declaration without a name', { contents: hello, tools: [{ functionDeclarations: [{ description: 'x' }] }] }, 'tools[0].functionDeclarations[0].name'],
  ])('rejects %s with a 400 naming the field', (_label, body, param, options = { pathModel: 'gemini-2.5-pro' }) => {
    let thrown: unknown;
    try {
      decodeGeminiRequest(body, options);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect(thrown).toMatchObject({ status: 400, code: 'invalid_request', param });
  });
});

describe('Gemini request round trips: decode → encode → decode', () => {
  it('a Gemini CLI request comes back as it was sent (the system role aside, which Gemini ignores)', () => {
    const { request } = decode(GEMINI_CLI_REQUEST, true);
    const encoded = encodeGeminiRequest(request, { model: 'gemini-2.5-pro' });
    expect(encoded.warnings).toEqual([]);
    expect(encoded.path).toBe('/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
    expect(encoded.body).toEqual({ ...GEMINI_CLI_REQUEST, systemInstruction: { parts: GEMINI_CLI_REQUEST.systemInstruction.parts } });
    expect(decode(encoded.body, true).request).toEqual(request);
  });

  it('a Gemini CLI JSON request keeps its upper-case schema for Gemini', () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'Who speaks next?' }] }], generationConfig: { responseMimeType: 'application/json', responseJsonSchema: NEXT_SPEAKER_SCHEMA } };
    const encoded = encodeGeminiRequest(decode(body).request, { model: 'gemini-2.5-flash' });
    expect(encoded.body).toEqual(body);
  });

  it('a snake_case REST body is stable once in camelCase', () => {
    const body = {
      contents: [{ parts: [{ text: 'Hi' }, { inline_data: { mime_type: 'image/png', data: 'AAAA' } }] }],
      generation_config: { response_mime_type: 'application/json', response_schema: { type: 'OBJECT', properties: { a: { type: 'STRING', nullable: true } } }, thinking_config: { thinking_budget: 0 } },
      safety_settings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      tools: [{ function_declarations: [{ name: 'f', parameters: { type: 'OBJECT' } }] }, { url_context: {} }],
      tool_config: { function_calling_config: { mode: 'NONE' } },
    };
    const { request } = decode(body);
    const encoded = encodeGeminiRequest(request, { model: 'gemini-2.5-pro' });
    expect(decode(encoded.body).request).toEqual(request);
    expect(encoded.body.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema: { type: 'OBJECT', properties: { a: { type: 'STRING', nullable: true } } },
      thinkingConfig: { thinkingBudget: 0 },
    });
  });
});
