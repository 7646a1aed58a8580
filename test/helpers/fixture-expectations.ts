import { readFixture, splitSseRecords } from './fixtures.js';

/**
 * What a recorded response says, read with plain code written for the test and independent of the
 * gateway's codecs: the answer text, the tool calls, and the token totals (input including cache,
 * output including reasoning, docs/protocols.md §7.6).
 */
export interface Expected {
  text: string;
  toolCalls: Array<{ name: string; args: unknown }>;
  inputTokens: number;
  outputTokens: number;
}

type Json = any;

const parseArgs = (text: string) => (text ? JSON.parse(text) : {});

function sseData(text: string): Json[] {
  return splitSseRecords(text)
    .map((record) => record.split(/\r?\n/).find((line) => line.startsWith('data:'))?.slice(5).trim())
    .filter((data): data is string => data !== undefined && data !== '[DONE]')
    .map((data) => JSON.parse(data));
}

export function expectFixture(protocol: string, file: string): Expected {
  const text = readFixture(protocol, file);
  const stream = file.endsWith('.sse');
  switch (protocol) {
    case 'openai-chat':
      return stream ? openAIChatStream(sseData(text)) : openAIChat(JSON.parse(text));
    case 'anthropic-messages':
      return stream ? anthropicStream(sseData(text)) : anthropic(JSON.parse(text));
    case 'openai-responses':
      return responses(stream ? sseData(text).find((event) => event.type === 'response.completed').response : JSON.parse(text));
    case 'gemini':
      return gemini(stream ? sseData(text) : [JSON.parse(text)]);
    default:
      throw new Error(`unknown protocol ${protocol}`);
  }
}

function openAIChat(body: Json): Expected {
  const message = body.choices[0].message;
  return {
    text: message.content ?? '',
    toolCalls: (message.tool_calls ?? []).map((call: Json) => ({ name: call.function.name, args: parseArgs(call.function.arguments) })),
    inputTokens: body.usage.prompt_tokens,
    outputTokens: body.usage.completion_tokens,
  };
}

function openAIChatStream(chunks: Json[]): Expected {
  let text = '';
  const calls = new Map<number, { name: string; args: string }>();
  let usage: Json = { prompt_tokens: 0, completion_tokens: 0 };
  for (const chunk of chunks) {
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      text += choice.delta?.content ?? '';
      for (const call of choice.delta?.tool_calls ?? []) {
        const entry = calls.get(call.index) ?? { name: '', args: '' };
        entry.name += call.function?.name ?? '';
        entry.args += call.function?.arguments ?? '';
        calls.set(call.index, entry);
      }
    }
  }
  return {
    text,
    toolCalls: [...calls.values()].map((call) => ({ name: call.name, args: parseArgs(call.args) })),
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
  };
}

const anthropicInput = (usage: Json) => usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);

function anthropic(body: Json): Expected {
  return {
    text: body.content.filter((block: Json) => block.type === 'text').map((block: Json) => block.text).join(''),
    toolCalls: body.content.filter((block: Json) => block.type === 'tool_use').map((block: Json) => ({ name: block.name, args: block.input })),
    inputTokens: anthropicInput(body.usage),
    outputTokens: body.usage.output_tokens,
  };
}

function anthropicStream(events: Json[]): Expected {
  let text = '';
  const blocks = new Map<number, { name: string; json: string }>();
  let usage: Json = {};
  for (const event of events) {
    if (event.type === 'message_start') usage = { ...event.message.usage };
    if (event.type === 'message_delta') usage = { ...usage, ...event.usage };
    if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') blocks.set(event.index, { name: event.content_block.name, json: '' });
    if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') blocks.get(event.index)!.json += event.delta.partial_json;
  }
  return { text, toolCalls: [...blocks.values()].map((block) => ({ name: block.name, args: parseArgs(block.json) })), inputTokens: anthropicInput(usage), outputTokens: usage.output_tokens };
}

function responses(response: Json): Expected {
  const items = response.output as Json[];
  return {
    text: items
      .filter((item) => item.type === 'message')
      .flatMap((item) => item.content)
      .filter((part: Json) => part.type === 'output_text')
      .map((part: Json) => part.text)
      .join(''),
    toolCalls: items.filter((item) => item.type === 'function_call').map((item) => ({ name: item.name, args: parseArgs(item.arguments) })),
    inputTokens: response.usage.input_tokens,
    outputTokens: response.usage.output_tokens,
  };
}

function gemini(chunks: Json[]): Expected {
  let text = '';
  const toolCalls: Expected['toolCalls'] = [];
  let usage: Json = {};
  for (const chunk of chunks) {
    if (chunk.usageMetadata) usage = chunk.usageMetadata;
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      if (typeof part.text === 'string' && !part.thought) text += part.text;
      if (part.functionCall) toolCalls.push({ name: part.functionCall.name, args: part.functionCall.args ?? {} });
    }
  }
  return {
    text,
    toolCalls,
    inputTokens: (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0),
    outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
  };
}
