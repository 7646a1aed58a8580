import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../../core/generate-request.js';
import { encodeGeminiRequest } from './encode-request.js';

const request = (overrides: Partial<GenerateRequest>): GenerateRequest => ({
  model: 'client-model',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
  stream: false,
  extensions: {},
  ...overrides,
});

describe('encodeGeminiRequest', () => {
  it('translates a conversation from another protocol', () => {
    const encoded = encodeGeminiRequest(
      request({
        system: [{ type: 'text', text: 'Be helpful.' }],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in these?' },
              { type: 'file', mediaType: 'image/png', data: { type: 'base64', base64: 'iVBORw0K' } },
              { type: 'file', mediaType: 'image/*', data: { type: 'url', url: 'https://example.com/cat.jpg' } },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'Two images.', signature: 'anthropic-signature' },
              { type: 'text', text: 'Let me look.' },
              { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'describe', input: '{"image":1}' },
              { type: 'tool-call', toolCallId: 'toolu_2', toolName: 'describe', input: '{"image":2}' },
            ],
          },
          {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: 'toolu_1', toolName: '', content: [{ type: 'text', text: 'A cat.' }] },
              { type: 'tool-result', toolCallId: 'toolu_2', toolName: 'describe', content: [{ type: 'text', text: 'Not found.' }], isError: true },
            ],
          },
          { role: 'system', content: [{ type: 'text', text: 'Answer in French.' }] },
          { role: 'user', content: [{ type: 'text', text: 'So?' }] },
        ],
        tools: [
          { type: 'function', name: 'describe', description: 'Describes an image.', inputSchema: { type: 'object', properties: { image: { type: 'integer' } }, additionalProperties: false }, strict: true },
          { type: 'provider', protocol: 'openai-chat', name: 'web_search', raw: { type: 'web_search' } },
        ],
        toolChoice: { type: 'tool', toolName: 'describe' },
        parallelToolCalls: false,
        maxOutputTokens: 500,
        temperature: 0.3,
        topP: 0.9,
        stopSequences: ['a', 'b', 'c', 'd', 'e', 'f'],
        n: 2,
        seed: 1,
        responseFormat: { type: 'json', name: 'answer', schema: { type: 'object', properties: { text: { type: 'string' } } } },
        reasoning: { effort: 'xhigh', includeThoughts: true },
        user: 'user-1',
        extensions: { 'openai-chat': { logit_bias: { '1': 2 }, include_usage: true } },
      }),
      { model: 'gemini-3-pro-preview' },
    );
    // The foreign-extension warning is worded by the shared foreign-extensions.ts.
    expect(encoded.warnings).toContainEqual(expect.objectContaining({ type: 'dropped', feature: 'logit_bias' }));
    encoded.warnings = encoded.warnings.filter((warning) => warning.feature !== 'logit_bias');
    expect(encoded).toMatchInlineSnapshot(`
      {
        "body": {
          "contents": [
            {
              "parts": [
                {
                  "text": "What is in these?",
                },
                {
                  "inlineData": {
                    "data": "iVBORw0K",
                    "mimeType": "image/png",
                  },
                },
                {
                  "fileData": {
                    "fileUri": "https://example.com/cat.jpg",
                  },
                },
              ],
              "role": "user",
            },
            {
              "parts": [
                {
                  "text": "Let me look.",
                },
                {
                  "functionCall": {
                    "args": {
                      "image": 1,
                    },
                    "name": "describe",
                  },
                  "thoughtSignature": "skip_thought_signature_validator",
                },
                {
                  "functionCall": {
                    "args": {
                      "image": 2,
                    },
                    "name": "describe",
                  },
                  "thoughtSignature": "skip_thought_signature_validator",
                },
              ],
              "role": "model",
            },
            {
              "parts": [
                {
                  "functionResponse": {
                    "name": "describe",
                    "response": {
                      "output": "A cat.",
                    },
                  },
                },
                {
                  "functionResponse": {
                    "name": "describe",
                    "response": {
                      "error": "Not found.",
                    },
                  },
                },
                {
                  "text": "So?",
                },
              ],
              "role": "user",
            },
          ],
          "generationConfig": {
            "candidateCount": 2,
            "maxOutputTokens": 500,
            "responseJsonSchema": {
              "properties": {
                "text": {
                  "type": "string",
                },
              },
              "type": "object",
            },
            "responseMimeType": "application/json",
            "seed": 1,
            "stopSequences": [
              "a",
              "b",
              "c",
              "d",
              "e",
            ],
            "temperature": 0.3,
            "thinkingConfig": {
              "includeThoughts": true,
              "thinkingLevel": "HIGH",
            },
            "topP": 0.9,
          },
          "systemInstruction": {
            "parts": [
              {
                "text": "Be helpful.",
              },
              {
                "text": "Answer in French.",
              },
            ],
          },
          "toolConfig": {
            "functionCallingConfig": {
              "allowedFunctionNames": [
                "describe",
              ],
              "mode": "ANY",
            },
          },
          "tools": [
            {
              "functionDeclarations": [
                {
                  "description": "Describes an image.",
                  "name": "describe",
                  "parametersJsonSchema": {
                    "additionalProperties": false,
                    "properties": {
                      "image": {
                        "type": "integer",
                      },
                    },
                    "type": "object",
                  },
                },
              ],
            },
          ],
        },
        "path": "/v1beta/models/gemini-3-pro-preview:generateContent",
        "warnings": [
          {
            "details": "sent as fileData by URL; Gemini may not fetch arbitrary URLs",
            "feature": "messages[0] file image/*",
            "type": "changed",
          },
          {
            "details": "reasoning of another vendor cannot be sent to Gemini",
            "feature": "messages[1] reasoning",
            "type": "dropped",
          },
          {
            "details": "moved into systemInstruction: Gemini has one system instruction",
            "feature": "messages[3] system",
            "type": "changed",
          },
          {
            "details": "Gemini has no strict schema mode",
            "feature": "tool describe strict",
            "type": "dropped",
          },
          {
            "details": "a built-in tool of another vendor",
            "feature": "tool web_search",
            "type": "dropped",
          },
          {
            "details": "Gemini cannot disable parallel function calls",
            "feature": "parallel_tool_calls",
            "type": "dropped",
          },
          {
            "details": "only the first 5 are sent",
            "feature": "stop_sequences",
            "type": "changed",
          },
          {
            "details": "'xhigh' sent as thinkingLevel HIGH, Gemini's highest",
            "feature": "reasoning effort",
            "type": "changed",
          },
          {
            "details": "Gemini has no end-user id",
            "feature": "user",
            "type": "dropped",
          },
        ],
      }
    `);
  });

  it('sends Gemini history back as it came: wire ids echoed, signatures kept, no placeholder', () => {
    const encoded = encodeGeminiRequest(
      request({
        stream: true,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Topics?' }] },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'Thinking.', protocolMetadata: { gemini: { thoughtSignature: 'c2ln' } } },
              { type: 'tool-call', toolCallId: 'fc_1', toolName: 'topic', input: '{}', protocolMetadata: { gemini: { functionCallId: 'fc_1', thoughtSignature: 'c2lnLTE=' } } },
              { type: 'tool-call', toolCallId: 'call_r_0_1', toolName: 'topic', input: '{}' },
              { type: 'text', text: '', protocolMetadata: { gemini: { thoughtSignature: 'c2lnLTI=' } } },
              { type: 'text', text: '' },
              { type: 'text', text: 'code', protocolMetadata: { gemini: { part: { executableCode: { language: 'PYTHON', code: 'x' } } } } },
            ],
          },
          {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: 'fc_1', toolName: 'topic', content: [{ type: 'text', text: 'one' }] },
              {
                type: 'tool-result',
                toolCallId: 'call_r_0_1',
                toolName: 'topic',
                content: [{ type: 'text', text: '{"n":2}' }, { type: 'file', mediaType: 'image/png', data: { type: 'base64', base64: 'AAAA' } }],
                protocolMetadata: { gemini: { response: { output: { n: 2 } } } },
              },
            ],
          },
        ],
        tools: [
          { type: 'function', name: 'topic', inputSchema: { type: 'object', properties: {} }, protocolMetadata: { gemini: { declarationFields: { parameters: { type: 'OBJECT' }, behavior: 'BLOCKING' } } } },
          { type: 'provider', protocol: 'gemini', name: 'googleSearch', raw: { googleSearch: {} } },
        ],
        responseFormat: { type: 'json', schema: { type: 'object' }, protocolMetadata: { gemini: { responseJsonSchema: { type: 'OBJECT' } } } } as GenerateRequest['responseFormat'],
        reasoning: { enabled: true, budgetTokens: 1024 },
        extensions: {
          gemini: {
            safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
            'generationConfig.responseModalities': ['TEXT'],
            'toolConfig.functionCallingConfig': { mode: 'VALIDATED' },
          },
        },
      }),
      { model: 'models/gemini-3-flash-preview' },
    );
    expect(encoded).toMatchInlineSnapshot(`
      {
        "body": {
          "contents": [
            {
              "parts": [
                {
                  "text": "Topics?",
                },
              ],
              "role": "user",
            },
            {
              "parts": [
                {
                  "text": "Thinking.",
                  "thought": true,
                  "thoughtSignature": "c2ln",
                },
                {
                  "functionCall": {
                    "args": {},
                    "id": "fc_1",
                    "name": "topic",
                  },
                  "thoughtSignature": "c2lnLTE=",
                },
                {
                  "functionCall": {
                    "args": {},
                    "name": "topic",
                  },
                },
                {
                  "text": "",
                  "thoughtSignature": "c2lnLTI=",
                },
                {
                  "executableCode": {
                    "code": "x",
                    "language": "PYTHON",
                  },
                },
              ],
              "role": "model",
            },
            {
              "parts": [
                {
                  "functionResponse": {
                    "id": "fc_1",
                    "name": "topic",
                    "response": {
                      "output": "one",
                    },
                  },
                },
                {
                  "functionResponse": {
                    "name": "topic",
                    "response": {
                      "output": {
                        "n": 2,
                      },
                    },
                  },
                },
                {
                  "inlineData": {
                    "data": "AAAA",
                    "mimeType": "image/png",
                  },
                },
              ],
              "role": "user",
            },
          ],
          "generationConfig": {
            "responseJsonSchema": {
              "type": "OBJECT",
            },
            "responseMimeType": "application/json",
            "responseModalities": [
              "TEXT",
            ],
            "thinkingConfig": {
              "thinkingBudget": 1024,
            },
          },
          "safetySettings": [
            {
              "category": "HARM_CATEGORY_HARASSMENT",
              "threshold": "BLOCK_NONE",
            },
          ],
          "toolConfig": {
            "functionCallingConfig": {
              "mode": "VALIDATED",
            },
          },
          "tools": [
            {
              "functionDeclarations": [
                {
                  "behavior": "BLOCKING",
                  "name": "topic",
                  "parameters": {
                    "type": "OBJECT",
                  },
                },
              ],
            },
            {
              "googleSearch": {},
            },
          ],
        },
        "path": "/v1beta/models/gemini-3-flash-preview:streamGenerateContent?alt=sse",
        "warnings": [],
      }
    `);
  });

  it.each<[GenerateRequest['reasoning'], unknown]>([
    [{ effort: 'none' }, { thinkingBudget: 0 }],
    [{ enabled: false }, { thinkingBudget: 0 }],
    [{ enabled: true }, { thinkingBudget: -1 }],
    [{ effort: 'minimal' }, { thinkingLevel: 'MINIMAL' }],
    [{ effort: 'medium', includeThoughts: false }, { thinkingLevel: 'MEDIUM', includeThoughts: false }],
    [{ budgetTokens: 4096, effort: 'high' }, { thinkingBudget: 4096 }],
  ])('reasoning %j → thinkingConfig %j', (reasoning, thinkingConfig) => {
    expect(encodeGeminiRequest(request({ reasoning }), { model: 'm' }).body.generationConfig).toEqual({ thinkingConfig });
  });

  it('sends tool choices as function calling modes', () => {
    const tools: GenerateRequest['tools'] = [{ type: 'function', name: 'f', inputSchema: { type: 'object' } }];
    const modeOf = (toolChoice: GenerateRequest['toolChoice']) => encodeGeminiRequest(request({ tools, toolChoice }), { model: 'm' }).body.toolConfig;
    expect([modeOf({ type: 'auto' }), modeOf({ type: 'none' }), modeOf({ type: 'required' })]).toEqual([
      { functionCallingConfig: { mode: 'AUTO' } },
      { functionCallingConfig: { mode: 'NONE' } },
      { functionCallingConfig: { mode: 'ANY' } },
    ]);
  });

  it('warns for what Gemini cannot take, and not for URLs Gemini fetches itself', () => {
    const encoded = encodeGeminiRequest(
      request({
        messages: [{ role: 'user', content: [{ type: 'file', mediaType: 'application/pdf', data: { type: 'url', url: 'https://generativelanguage.googleapis.com/v1beta/files/abc' } }] }],
        responseFormat: { type: 'json', name: 'answer', description: 'The answer.', strict: true },
        metadata: { team: 'a' },
      }),
      { model: 'm' },
    );
    expect(encoded.body.generationConfig).toEqual({ responseMimeType: 'application/json' });
    expect(encoded.warnings).toEqual([
      { type: 'dropped', feature: 'response_format description', details: 'Gemini takes only the schema' },
      { type: 'dropped', feature: 'metadata', details: 'Gemini has no request metadata' },
    ]);
  });
});
