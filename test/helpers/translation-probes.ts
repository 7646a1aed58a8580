import type { Protocol } from '../../src/core/protocol.js';

/**
 * Client requests that each use one feature of docs/translation.md, in each client protocol's own
 * wire form: a request row's label → the request body per client protocol. A protocol left out
 * cannot say the feature at all, and its table has no such row. Every request is the protocol's
 * smallest valid request plus the feature, so the warnings it gets belong to that feature.
 */
type Body = Record<string, unknown>;
export type FeatureProbe = Partial<Record<Protocol, Body>>;

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSPj4Kc3RyZWFtCmVuZHN0cmVhbQplbmRvYmoKdHJhaWxlcgo8PD4+CiUlRU9GCg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';
const IMAGE_URL = 'https://example.com/cat.png';
const PDF_URL = 'https://example.com/paper.pdf';
const SCHEMA = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };

/** The smallest valid request of each protocol, with `fields` added (arrays of turns appended). */
export const chat = (fields: Body = {}): Body => ({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], ...fields });
export const anthropic = (fields: Body = {}): Body => ({ model: 'm', max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }], ...fields });
export const responses = (fields: Body = {}): Body => ({ model: 'm', input: [{ role: 'user', content: 'Hi' }], ...fields });
export const gemini = (fields: Body = {}): Body => ({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], ...fields });

const chatTool = { type: 'function', function: { name: 'lookup', description: 'Looks a city up.', parameters: SCHEMA } };
const anthropicTool = { name: 'lookup', description: 'Looks a city up.', input_schema: SCHEMA };
const responsesTool = { type: 'function', name: 'lookup', description: 'Looks a city up.', parameters: SCHEMA, strict: false };
const geminiTools = [{ functionDeclarations: [{ name: 'lookup', description: 'Looks a city up.', parametersJsonSchema: SCHEMA }] }];

const chatUser = (content: unknown) => chat({ messages: [{ role: 'user', content }] });
const anthropicUser = (content: unknown) => anthropic({ messages: [{ role: 'user', content }] });
const responsesUser = (content: unknown) => responses({ input: [{ role: 'user', content }] });
const geminiUser = (parts: unknown[]) => gemini({ contents: [{ role: 'user', parts }] });

/** A turn with two parallel calls, then their results (the first one's content as given). */
function toolHistory(result: { anthropic?: unknown; responses?: unknown } = {}): FeatureProbe {
  const text = 'sunny';
  return {
    'openai-chat': chat({
      tools: [chatTool],
      messages: [
        { role: 'user', content: 'Weather in Paris and Oslo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'lookup', arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: text },
        { role: 'tool', tool_call_id: 'call_2', content: text },
      ],
    }),
    'anthropic-messages': anthropic({
      tools: [anthropicTool],
      messages: [
        { role: 'user', content: 'Weather in Paris and Oslo?' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'lookup', input: { city: 'Oslo' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: result.anthropic ?? text },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: text },
          ],
        },
      ],
    }),
    'openai-responses': responses({
      tools: [responsesTool],
      input: [
        { role: 'user', content: 'Weather in Paris and Oslo?' },
        { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'call_2', name: 'lookup', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_1', output: result.responses ?? text },
        { type: 'function_call_output', call_id: 'call_2', output: text },
      ],
    }),
    gemini: gemini({
      tools: geminiTools,
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris and Oslo?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { city: 'Paris' } } }, { functionCall: { name: 'lookup', args: { city: 'Oslo' } } }] },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'lookup', response: { output: text } } },
            { functionResponse: { name: 'lookup', response: { output: text } } },
          ],
        },
      ],
    }),
  };
}

export const FEATURE_PROBES: Record<string, FeatureProbe> = {
  text: { 'openai-chat': chat(), 'anthropic-messages': anthropic(), 'openai-responses': responses(), gemini: gemini() },
  'system prompt': {
    'openai-chat': chat({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }] }),
    'anthropic-messages': anthropic({ system: [{ type: 'text', text: 'Be brief.' }] }),
    'openai-responses': responses({ instructions: 'Be brief.' }),
    gemini: gemini({ systemInstruction: { parts: [{ text: 'Be brief.' }] } }),
  },
  'system message mid-conversation': {
    'openai-chat': chat({ messages: [{ role: 'user', content: 'Hi' }, { role: 'system', content: 'Answer in French.' }, { role: 'user', content: 'Again' }] }),
    'anthropic-messages': anthropic({ messages: [{ role: 'user', content: 'Hi' }, { role: 'system', content: 'Answer in French.' }, { role: 'user', content: 'Again' }] }),
    'openai-responses': responses({ input: [{ role: 'user', content: 'Hi' }, { role: 'developer', content: 'Answer in French.' }, { role: 'user', content: 'Again' }] }),
  },
  'multi-turn history': {
    'openai-chat': chat({ messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }, { role: 'user', content: 'How are you?' }] }),
    'anthropic-messages': anthropic({ messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }, { role: 'user', content: 'How are you?' }] }),
    'openai-responses': responses({
      input: [{ role: 'user', content: 'Hi' }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello!' }] }, { role: 'user', content: 'How are you?' }],
    }),
    gemini: gemini({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }, { role: 'model', parts: [{ text: 'Hello!' }] }, { role: 'user', parts: [{ text: 'How are you?' }] }] }),
  },
  'image by URL': {
    'openai-chat': chatUser([{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: IMAGE_URL } }]),
    'anthropic-messages': anthropicUser([{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'url', url: IMAGE_URL } }]),
    'openai-responses': responsesUser([{ type: 'input_text', text: 'What is this?' }, { type: 'input_image', image_url: IMAGE_URL }]),
    gemini: geminiUser([{ text: 'What is this?' }, { fileData: { mimeType: 'image/png', fileUri: IMAGE_URL } }]),
  },
  'image, base64': {
    'openai-chat': chatUser([{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }]),
    'anthropic-messages': anthropicUser([{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }]),
    'openai-responses': responsesUser([{ type: 'input_text', text: 'What is this?' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}` }]),
    gemini: geminiUser([{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: PNG } }]),
  },
  'PDF, base64': {
    'openai-chat': chatUser([{ type: 'text', text: 'Summarize.' }, { type: 'file', file: { filename: 'paper.pdf', file_data: `data:application/pdf;base64,${PDF}` } }]),
    'anthropic-messages': anthropicUser([{ type: 'text', text: 'Summarize.' }, { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } }]),
    'openai-responses': responsesUser([{ type: 'input_text', text: 'Summarize.' }, { type: 'input_file', filename: 'paper.pdf', file_data: `data:application/pdf;base64,${PDF}` }]),
    gemini: geminiUser([{ text: 'Summarize.' }, { inlineData: { mimeType: 'application/pdf', data: PDF } }]),
  },
  'PDF by URL': {
    'anthropic-messages': anthropicUser([{ type: 'text', text: 'Summarize.' }, { type: 'document', source: { type: 'url', url: PDF_URL } }]),
    'openai-responses': responsesUser([{ type: 'input_text', text: 'Summarize.' }, { type: 'input_file', file_url: PDF_URL }]),
    gemini: geminiUser([{ text: 'Summarize.' }, { fileData: { mimeType: 'application/pdf', fileUri: PDF_URL } }]),
  },
  'audio input': {
    'openai-chat': chatUser([{ type: 'text', text: 'Transcribe.' }, { type: 'input_audio', input_audio: { data: WAV, format: 'wav' } }]),
    gemini: geminiUser([{ text: 'Transcribe.' }, { inlineData: { mimeType: 'audio/wav', data: WAV } }]),
  },
  'function tools': {
    'openai-chat': chat({ tools: [chatTool] }),
    'anthropic-messages': anthropic({ tools: [anthropicTool] }),
    'openai-responses': responses({ tools: [responsesTool] }),
    gemini: gemini({ tools: geminiTools }),
  },
  'strict tool schemas': {
    'openai-chat': chat({ tools: [{ type: 'function', function: { ...chatTool.function, name: 'find_city', strict: true } }] }),
    'anthropic-messages': anthropic({ tools: [{ ...anthropicTool, name: 'find_city', strict: true }] }),
    'openai-responses': responses({ tools: [{ ...responsesTool, name: 'find_city', strict: true }] }),
  },
  'tool schema that is not an object': {
    'openai-chat': chat({ tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'array', items: { type: 'string' } } } }] }),
    'openai-responses': responses({ tools: [{ type: 'function', name: 'lookup', parameters: { type: 'array', items: { type: 'string' } }, strict: false }] }),
    gemini: gemini({ tools: [{ functionDeclarations: [{ name: 'lookup', parametersJsonSchema: { type: 'array', items: { type: 'string' } } }] }] }),
  },
  'tool_choice': {
    'openai-chat': chat({ tools: [chatTool], tool_choice: { type: 'function', function: { name: 'lookup' } } }),
    'anthropic-messages': anthropic({ tools: [anthropicTool], tool_choice: { type: 'tool', name: 'lookup' } }),
    'openai-responses': responses({ tools: [responsesTool], tool_choice: { type: 'function', name: 'lookup' } }),
    gemini: gemini({ tools: geminiTools, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lookup'] } } }),
  },
  'parallel tool calls off': {
    'openai-chat': chat({ tools: [chatTool], parallel_tool_calls: false }),
    'anthropic-messages': anthropic({ tools: [anthropicTool], tool_choice: { type: 'auto', disable_parallel_tool_use: true } }),
    'openai-responses': responses({ tools: [responsesTool], parallel_tool_calls: false }),
  },
  'tool calls and results in history': toolHistory(),
  'tool result without its call': {
    'openai-chat': chat({ messages: [{ role: 'user', content: 'Hi' }, { role: 'tool', tool_call_id: 'call_9', content: 'sunny' }] }),
    'anthropic-messages': anthropic({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'sunny' }] }] }),
    'openai-responses': responses({ input: [{ role: 'user', content: 'Hi' }, { type: 'function_call_output', call_id: 'call_9', output: 'sunny' }] }),
  },
  'tool result with an image': (() => {
    const probe = toolHistory({
      anthropic: [{ type: 'text', text: 'sunny' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }],
      responses: [{ type: 'input_text', text: 'sunny' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}` }],
    });
    const geminiProbe = gemini({
      tools: geminiTools,
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { output: 'sunny' }, parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] } }] },
      ],
    });
    // OpenAI Chat tool messages are text only.
    return { 'anthropic-messages': probe['anthropic-messages'], 'openai-responses': probe['openai-responses'], gemini: geminiProbe };
  })(),
  // OpenAI Chat and Responses have no error flag on results.
  'tool result marked as error': {
    'anthropic-messages': anthropic({
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'city not found', is_error: true }] },
      ],
    }),
    gemini: gemini({
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { error: 'city not found' } } }] },
      ],
    }),
  },
  'structured output: JSON schema': {
    'openai-chat': chat({ response_format: { type: 'json_schema', json_schema: { name: 'city', schema: SCHEMA, strict: true } } }),
    'anthropic-messages': anthropic({ output_config: { format: { type: 'json_schema', schema: SCHEMA } } }),
    'openai-responses': responses({ text: { format: { type: 'json_schema', name: 'city', schema: SCHEMA, strict: true } } }),
    gemini: gemini({ generationConfig: { responseMimeType: 'application/json', responseJsonSchema: SCHEMA } }),
  },
  'structured output: schema description': {
    'openai-chat': chat({ response_format: { type: 'json_schema', json_schema: { name: 'city', description: 'A city.', schema: SCHEMA } } }),
    'openai-responses': responses({ text: { format: { type: 'json_schema', name: 'city', description: 'A city.', schema: SCHEMA } } }),
  },
  'structured output: JSON mode without a schema': {
    'openai-chat': chat({ response_format: { type: 'json_object' } }),
    'openai-responses': responses({ text: { format: { type: 'json_object' } } }),
    gemini: gemini({ generationConfig: { responseMimeType: 'application/json' } }),
  },
  'stop sequences': {
    'openai-chat': chat({ stop: ['END', '###'] }),
    'anthropic-messages': anthropic({ stop_sequences: ['END', '###'] }),
    gemini: gemini({ generationConfig: { stopSequences: ['END', '###'] } }),
  },
  'more stop sequences than the target takes': {
    'anthropic-messages': anthropic({ stop_sequences: ['a', 'b', 'c', 'd', 'e', 'f'] }),
    gemini: gemini({ generationConfig: { stopSequences: ['a', 'b', 'c', 'd', 'e'] } }),
  },
  'max tokens': {
    'openai-chat': chat({ max_completion_tokens: 1000 }),
    'anthropic-messages': anthropic({ max_tokens: 1000 }),
    'openai-responses': responses({ max_output_tokens: 1000 }),
    gemini: gemini({ generationConfig: { maxOutputTokens: 1000 } }),
  },
  'max tokens below 16': {
    'openai-chat': chat({ max_completion_tokens: 10 }),
    'anthropic-messages': anthropic({ max_tokens: 10 }),
    gemini: gemini({ generationConfig: { maxOutputTokens: 10 } }),
  },
  'temperature, top_p': {
    'openai-chat': chat({ temperature: 0.5, top_p: 0.9 }),
    'anthropic-messages': anthropic({ temperature: 0.5, top_p: 0.9 }),
    'openai-responses': responses({ temperature: 0.5, top_p: 0.9 }),
    gemini: gemini({ generationConfig: { temperature: 0.5, topP: 0.9 } }),
  },
  'temperature above 1': {
    'openai-chat': chat({ temperature: 1.5 }),
    'openai-responses': responses({ temperature: 1.5 }),
    gemini: gemini({ generationConfig: { temperature: 1.5 } }),
  },
  top_k: {
    'anthropic-messages': anthropic({ top_k: 40 }),
    gemini: gemini({ generationConfig: { topK: 40 } }),
  },
  'penalties, seed': {
    'openai-chat': chat({ presence_penalty: 0.5, frequency_penalty: 0.5, seed: 7 }),
    gemini: gemini({ generationConfig: { presencePenalty: 0.5, frequencyPenalty: 0.5, seed: 7 } }),
  },
  'reasoning effort': {
    'openai-chat': chat({ reasoning_effort: 'medium' }),
    'anthropic-messages': anthropic({ thinking: { type: 'adaptive' }, output_config: { effort: 'medium' } }),
    'openai-responses': responses({ reasoning: { effort: 'medium' } }),
    gemini: gemini({ generationConfig: { thinkingConfig: { thinkingLevel: 'MEDIUM' } } }),
  },
  'reasoning effort minimal': {
    'openai-chat': chat({ reasoning_effort: 'minimal' }),
    'openai-responses': responses({ reasoning: { effort: 'minimal' } }),
    gemini: gemini({ generationConfig: { thinkingConfig: { thinkingLevel: 'MINIMAL' } } }),
  },
  'reasoning effort xhigh or max': {
    'openai-chat': chat({ reasoning_effort: 'xhigh' }),
    'anthropic-messages': anthropic({ thinking: { type: 'adaptive' }, output_config: { effort: 'max' } }),
    'openai-responses': responses({ reasoning: { effort: 'xhigh' } }),
  },
  'reasoning budget': {
    'anthropic-messages': anthropic({ max_tokens: 8000, thinking: { type: 'enabled', budget_tokens: 2048 } }),
    gemini: gemini({ generationConfig: { thinkingConfig: { thinkingBudget: 2048 } } }),
  },
  'reasoning budget below 1024': {
    gemini: gemini({ generationConfig: { thinkingConfig: { thinkingBudget: 512 } } }),
  },
  'reasoning budget and effort together': {
    'anthropic-messages': anthropic({ max_tokens: 8000, thinking: { type: 'enabled', budget_tokens: 2048 }, output_config: { effort: 'high' } }),
  },
  'reasoning budget above max tokens': {
    gemini: gemini({ generationConfig: { maxOutputTokens: 1000, thinkingConfig: { thinkingBudget: 2048 } } }),
  },
  'reasoning off': {
    'openai-chat': chat({ reasoning_effort: 'none' }),
    'anthropic-messages': anthropic({ thinking: { type: 'disabled' } }),
    'openai-responses': responses({ reasoning: { effort: 'none' } }),
    gemini: gemini({ generationConfig: { thinkingConfig: { thinkingBudget: 0 } } }),
  },
  'reasoning text requested': {
    'openai-responses': responses({ reasoning: { effort: 'medium', summary: 'auto' } }),
    gemini: gemini({ generationConfig: { thinkingConfig: { thinkingLevel: 'MEDIUM', includeThoughts: true } } }),
  },
  'reasoning with a forced tool call': {
    'openai-chat': chat({ reasoning_effort: 'medium', tools: [chatTool], tool_choice: 'required' }),
    'anthropic-messages': anthropic({ thinking: { type: 'adaptive' }, tools: [anthropicTool], tool_choice: { type: 'any' } }),
    'openai-responses': responses({ reasoning: { effort: 'medium' }, tools: [responsesTool], tool_choice: 'required' }),
    gemini: gemini({ tools: geminiTools, toolConfig: { functionCallingConfig: { mode: 'ANY' } }, generationConfig: { thinkingConfig: { thinkingLevel: 'MEDIUM' } } }),
  },
  'temperature while reasoning': {
    'openai-chat': chat({ reasoning_effort: 'medium', temperature: 0.5 }),
    'openai-responses': responses({ reasoning: { effort: 'medium' }, temperature: 0.5 }),
    gemini: gemini({ generationConfig: { temperature: 0.5, thinkingConfig: { thinkingLevel: 'MEDIUM' } } }),
  },
  'top_k while reasoning': {
    gemini: gemini({ generationConfig: { topK: 40, thinkingConfig: { thinkingLevel: 'MEDIUM' } } }),
  },
  'reasoning history of the same vendor': {
    'openai-chat': chat({ messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!', reasoning_content: 'Greet back.' }, { role: 'user', content: 'Bye' }] }),
    'anthropic-messages': anthropic({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Greet back.', signature: 'sig-anthropic' }, { type: 'text', text: 'Hello!' }] },
        { role: 'user', content: 'Bye' },
      ],
    }),
    'openai-responses': responses({
      input: [
        { role: 'user', content: 'Hi' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Greet back.' }], encrypted_content: 'gAAAA-openai' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello!' }] },
        { role: 'user', content: 'Bye' },
      ],
    }),
    gemini: gemini({
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ text: 'Greet back.', thought: true, thoughtSignature: 'sig-gemini' }, { text: 'Hello!' }] },
        { role: 'user', parts: [{ text: 'Bye' }] },
      ],
    }),
  },
  'code execution parts in history': {
    gemini: gemini({
      contents: [
        { role: 'user', parts: [{ text: 'What is 2 + 2?' }] },
        {
          role: 'model',
          parts: [{ executableCode: { language: 'PYTHON', code: 'print(2 + 2)' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '4' } }, { text: '4' }],
        },
        { role: 'user', parts: [{ text: 'Thanks' }] },
      ],
    }),
  },
  'n > 1': {
    'openai-chat': chat({ n: 2 }),
    gemini: gemini({ generationConfig: { candidateCount: 2 } }),
  },
  'end-user id': {
    'openai-chat': chat({ user: 'user-1' }),
    'anthropic-messages': anthropic({ metadata: { user_id: 'user-1' } }),
    'openai-responses': responses({ safety_identifier: 'user-1' }),
  },
  metadata: {
    'openai-chat': chat({ metadata: { team: 'search' } }),
    'openai-responses': responses({ metadata: { team: 'search' } }),
  },
  'vendor built-in tools': {
    'anthropic-messages': anthropic({ tools: [{ type: 'web_search_20250305', name: 'web_search' }] }),
    'openai-responses': responses({ tools: [{ type: 'web_search' }] }),
    gemini: gemini({ tools: [{ googleSearch: {} }] }),
  },
  'vendor-only fields': {
    'openai-chat': chat({ logprobs: true }),
    'anthropic-messages': anthropic({ service_tier: 'auto' }),
    'openai-responses': responses({ prompt_cache_key: 'session-1' }),
    gemini: gemini({ safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }] }),
  },
  'prompt-cache breakpoints': {
    'anthropic-messages': anthropic({ system: [{ type: 'text', text: 'Long instructions.', cache_control: { type: 'ephemeral' } }] }),
  },
  'store: false': {
    'openai-responses': responses({ store: false }),
  },
  'stored state': {
    'openai-responses': responses({ previous_response_id: 'resp_1' }),
  },
  'participant names': {
    'openai-chat': chat({ messages: [{ role: 'user', name: 'alice', content: 'Hi' }] }),
  },
  'legacy functions': {
    'openai-chat': chat({ functions: [chatTool.function] }),
  },
};

const TURN_LISTS = new Set(['messages', 'input', 'contents']);

/**
 * Several probes of one protocol as one feature-rich request: their turns one after the other,
 * their tools together (a later tool of the same name replaces an earlier one), and their other
 * fields merged, nested objects (generationConfig, output_config, ...) key by key.
 */
export function combineProbeBodies(bodies: Body[]): Body {
  const combined: Body = {};
  for (const body of bodies) {
    for (const [key, value] of Object.entries(body)) {
      const previous = combined[key];
      if (TURN_LISTS.has(key) && Array.isArray(previous) && Array.isArray(value)) combined[key] = [...previous, ...value];
      else if (key === 'tools' && Array.isArray(previous) && Array.isArray(value)) combined[key] = combineTools([...previous, ...value]);
      else combined[key] = isObject(previous) && isObject(value) ? combineProbeBodies([previous, value]) : value;
    }
  }
  return combined;
}

function combineTools(tools: unknown[]): unknown[] {
  const byName = new Map<string, unknown>();
  const declarations = new Map<string, unknown>();
  for (const tool of tools as Body[]) {
    // Gemini: one tool holds every function declaration.
    if (Array.isArray(tool.functionDeclarations)) {
      for (const declaration of tool.functionDeclarations as Body[]) declarations.set(String(declaration.name), declaration);
      continue;
    }
    const fn = tool.function as Body | undefined;
    byName.set(String(fn?.name ?? tool.name ?? JSON.stringify(tool)), tool);
  }
  return [...(declarations.size > 0 ? [{ functionDeclarations: [...declarations.values()] }] : []), ...byName.values()];
}

function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
