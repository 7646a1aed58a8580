import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type Content } from '@google/genai';
import OpenAI from 'openai';

/** What a client SDK returned, normalised for comparison with a fixture's expectation. */
export interface ClientResult {
  text: string;
  toolCalls: Array<{ name: string; args: unknown }>;
  inputTokens: number;
  outputTokens: number;
}

/** One official SDK as a client of the gateway: a plain turn, a streamed turn, a tool round trip. */
export interface ProtocolClient {
  name: string;
  text(model: string): Promise<ClientResult>;
  /** Streams through the SDK's strict stream helper where it has one. */
  stream(model: string, tools?: boolean): Promise<ClientResult>;
  /** Sends the previous turn's tool calls back with results, and returns the next answer. */
  followUp(model: string, previous: unknown, result: string): Promise<ClientResult>;
  /** The raw assistant turn of the last `stream` call, for `followUp`. */
  lastTurn(): unknown;
}

const TOOL_SCHEMA = { type: 'object' as const, properties: { query: { type: 'string' } }, required: ['query'] };
const QUESTION = 'What is the weather?';

export function createOpenAIChatClient(baseURL: string): ProtocolClient {
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${baseURL}/v1`, maxRetries: 0 });
  let last: OpenAI.ChatCompletionMessage | undefined;
  const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'lookup', parameters: TOOL_SCHEMA } }];
  const toResult = (completion: OpenAI.ChatCompletion): ClientResult => ({
    text: completion.choices[0].message.content ?? '',
    toolCalls: (completion.choices[0].message.tool_calls ?? []).map((call) => (call.type === 'function' ? { name: call.function.name, args: JSON.parse(call.function.arguments || '{}') } : { name: '', args: null })),
    inputTokens: completion.usage?.prompt_tokens ?? -1,
    outputTokens: completion.usage?.completion_tokens ?? -1,
  });
  return {
    name: 'openai-chat',
    text: async (model) => toResult(await client.chat.completions.create({ model, messages: [{ role: 'user', content: QUESTION }] })),
    async stream(model, withTools) {
      const completion = await client.chat.completions
        .stream({ model, messages: [{ role: 'user', content: QUESTION }], stream_options: { include_usage: true }, ...(withTools && { tools }) })
        .finalChatCompletion();
      last = completion.choices[0].message;
      return toResult(completion);
    },
    async followUp(model, previous, result) {
      const message = previous as OpenAI.ChatCompletionMessage;
      const toolMessages = (message.tool_calls ?? []).map((call) => ({ role: 'tool' as const, tool_call_id: call.id, content: result }));
      return toResult(await client.chat.completions.create({ model, tools, messages: [{ role: 'user', content: QUESTION }, message, ...toolMessages] }));
    },
    lastTurn: () => last,
  };
}

export function createResponsesClient(baseURL: string): ProtocolClient {
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${baseURL}/v1`, maxRetries: 0 });
  let last: OpenAI.Responses.Response | undefined;
  const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'lookup', parameters: TOOL_SCHEMA, strict: false }];
  const toResult = (response: OpenAI.Responses.Response): ClientResult => ({
    text: response.output_text,
    toolCalls: response.output.flatMap((item) => (item.type === 'function_call' ? [{ name: item.name, args: JSON.parse(item.arguments || '{}') }] : [])),
    inputTokens: response.usage?.input_tokens ?? -1,
    outputTokens: response.usage?.output_tokens ?? -1,
  });
  return {
    name: 'openai-responses',
    text: async (model) => toResult(await client.responses.create({ model, input: QUESTION })),
    async stream(model, withTools) {
      last = await client.responses.stream({ model, input: QUESTION, ...(withTools && { tools }) }).finalResponse();
      return toResult(last);
    },
    async followUp(model, previous, result) {
      const response = previous as OpenAI.Responses.Response;
      const calls = response.output.filter((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
      const input: OpenAI.Responses.ResponseInput = [
        { role: 'user', content: QUESTION },
        ...calls.map((call) => ({ type: 'function_call' as const, call_id: call.call_id, name: call.name, arguments: call.arguments })),
        ...calls.map((call) => ({ type: 'function_call_output' as const, call_id: call.call_id, output: result })),
      ];
      return toResult(await client.responses.create({ model, input, tools }));
    },
    lastTurn: () => last,
  };
}

export function createAnthropicClient(baseURL: string): ProtocolClient {
  const client = new Anthropic({ apiKey: 'sk-test', baseURL, maxRetries: 0 });
  let last: Anthropic.Message | undefined;
  const tools: Anthropic.Tool[] = [{ name: 'lookup', input_schema: TOOL_SCHEMA }];
  const toResult = (message: Anthropic.Message): ClientResult => ({
    text: message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
    toolCalls: message.content.flatMap((block) => (block.type === 'tool_use' ? [{ name: block.name, args: block.input }] : [])),
    inputTokens: message.usage.input_tokens + (message.usage.cache_creation_input_tokens ?? 0) + (message.usage.cache_read_input_tokens ?? 0),
    outputTokens: message.usage.output_tokens,
  });
  return {
    name: 'anthropic-messages',
    text: async (model) => toResult(await client.messages.create({ model, max_tokens: 1024, messages: [{ role: 'user', content: QUESTION }] })),
    async stream(model, withTools) {
      last = await client.messages.stream({ model, max_tokens: 1024, messages: [{ role: 'user', content: QUESTION }], ...(withTools && { tools }) }).finalMessage();
      return toResult(last);
    },
    async followUp(model, previous, result) {
      const message = previous as Anthropic.Message;
      const results = message.content.flatMap((block) => (block.type === 'tool_use' ? [{ type: 'tool_result' as const, tool_use_id: block.id, content: result }] : []));
      return toResult(
        await client.messages.create({
          model,
          max_tokens: 1024,
          tools,
          messages: [
            { role: 'user', content: QUESTION },
            { role: 'assistant', content: message.content as Anthropic.ContentBlockParam[] },
            { role: 'user', content: results },
          ],
        }),
      );
    },
    lastTurn: () => last,
  };
}

export function createGeminiClient(baseURL: string): ProtocolClient {
  const client = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: baseURL } });
  let last: Content | undefined;
  const config = { tools: [{ functionDeclarations: [{ name: 'lookup', parametersJsonSchema: TOOL_SCHEMA }] }] };
  const usage = (metadata: { promptTokenCount?: number; toolUsePromptTokenCount?: number; candidatesTokenCount?: number; thoughtsTokenCount?: number } | undefined) => ({
    inputTokens: (metadata?.promptTokenCount ?? 0) + (metadata?.toolUsePromptTokenCount ?? 0),
    outputTokens: (metadata?.candidatesTokenCount ?? 0) + (metadata?.thoughtsTokenCount ?? 0),
  });
  return {
    name: 'gemini',
    async text(model) {
      const response = await client.models.generateContent({ model, contents: QUESTION });
      return { text: response.text ?? '', toolCalls: (response.functionCalls ?? []).map((call) => ({ name: call.name!, args: call.args ?? {} })), ...usage(response.usageMetadata) };
    },
    async stream(model, withTools) {
      let text = '';
      const toolCalls: ClientResult['toolCalls'] = [];
      const parts: NonNullable<Content['parts']> = [];
      let metadata;
      for await (const chunk of await client.models.generateContentStream({ model, contents: QUESTION, ...(withTools && { config }) })) {
        text += chunk.text ?? '';
        for (const call of chunk.functionCalls ?? []) toolCalls.push({ name: call.name!, args: call.args ?? {} });
        parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
        metadata = chunk.usageMetadata ?? metadata;
      }
      last = { role: 'model', parts };
      return { text, toolCalls, ...usage(metadata) };
    },
    async followUp(model, previous, result) {
      const turn = previous as Content;
      const responses = (turn.parts ?? []).flatMap((part) =>
        part.functionCall ? [{ functionResponse: { name: part.functionCall.name!, id: part.functionCall.id, response: { output: result } } }] : [],
      );
      const response = await client.models.generateContent({ model, config, contents: [{ role: 'user', parts: [{ text: QUESTION }] }, turn, { role: 'user', parts: responses }] });
      return { text: response.text ?? '', toolCalls: [], ...usage(response.usageMetadata) };
    },
    lastTurn: () => last,
  };
}

/** The official SDK of `protocol`, as a client of the gateway at `baseURL`. */
export function createProtocolClient(protocol: 'openai-chat' | 'anthropic-messages' | 'openai-responses' | 'gemini', baseURL: string): ProtocolClient {
  switch (protocol) {
    case 'openai-chat':
      return createOpenAIChatClient(baseURL);
    case 'openai-responses':
      return createResponsesClient(baseURL);
    case 'anthropic-messages':
      return createAnthropicClient(baseURL);
    case 'gemini':
      return createGeminiClient(baseURL);
  }
}
