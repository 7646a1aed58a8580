import { invalidRequest } from '../../core/gateway-error.js';
import type { GenerateRequest, ReasoningEffort, ResponseFormat } from '../../core/generate-request.js';
import type { Warning } from '../../core/warning.js';
import type { DecodedRequest } from '../protocol-codec.js';
import { decodeMessages } from './decode-messages.js';
import { decodeToolChoice, decodeTools } from './decode-tools.js';
import {
  pickUnknownFields,
  readBoolean,
  readEnum,
  readNumber,
  readObject,
  readString,
  readStringMap,
  requireArray,
  requireNonEmptyString,
  requireObject,
  type JsonObject,
} from '../read-fields.js';

const REASONING_EFFORTS: readonly ReasoningEffort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

/** Fields this codec maps to the core; any other field rides in `extensions['openai-chat']`. */
const MAPPED_FIELDS = new Set([
  'model', 'messages', 'stream', 'stream_options', 'temperature', 'top_p', 'n', 'max_tokens', 'max_completion_tokens',
  'stop', 'presence_penalty', 'frequency_penalty', 'seed', 'tools', 'tool_choice', 'parallel_tool_calls',
  'response_format', 'reasoning_effort', 'user', 'safety_identifier', 'metadata', 'functions', 'function_call',
]);

/** OpenAI Chat Completions request → GenerateRequest, validating every field (docs/protocols.md §1.1). */
export function decodeOpenAIChatRequest(input: unknown): DecodedRequest {
  const body = requireObject(input, 'body');
  const warnings: Warning[] = [];
  const model = requireNonEmptyString(body, 'model');
  const stream = readBoolean(body, 'stream') ?? false;

  const streamOptions = readObject(body, 'stream_options');
  if (streamOptions && !stream) {
    throw invalidRequest('stream_options', "Invalid 'stream_options': only allowed when 'stream' is true.");
  }
  const includeUsage = streamOptions ? readBoolean(streamOptions, 'include_usage', 'stream_options.include_usage') : undefined;

  const rawMessages = requireArray(body, 'messages');
  if (rawMessages.length === 0) throw invalidRequest('messages', "Invalid 'messages': empty array. Expected an array with minimum length 1.");
  const { system, messages } = decodeMessages(rawMessages, warnings);

  const maxCompletionTokens = readNumber(body, 'max_completion_tokens', { integer: true, min: 1 });
  const maxTokens = readNumber(body, 'max_tokens', { integer: true, min: 1 });

  const stop = body.stop;
  let stopSequences: string[] | undefined;
  if (typeof stop === 'string') stopSequences = [stop];
  else if (Array.isArray(stop)) {
    if (stop.length > 4) throw invalidRequest('stop', "Invalid 'stop': at most 4 stop sequences are allowed.");
    stopSequences = stop.map((entry, index) => {
      if (typeof entry !== 'string') throw invalidRequest(`stop[${index}]`, `Invalid type for 'stop[${index}]': expected a string.`);
      return entry;
    });
  } else if (stop !== undefined && stop !== null) {
    throw invalidRequest('stop', "Invalid type for 'stop': expected a string or an array of strings.");
  }

  const tools = decodeTools(body);
  const request: GenerateRequest = {
    model,
    system,
    messages,
    tools,
    stream,
    extensions: {},
  };
  const toolChoice = decodeToolChoice(body.tool_choice);
  if (toolChoice) request.toolChoice = toolChoice;
  assign(request, 'parallelToolCalls', readBoolean(body, 'parallel_tool_calls'));
  assign(request, 'maxOutputTokens', maxCompletionTokens ?? maxTokens);
  assign(request, 'temperature', readNumber(body, 'temperature', { min: 0, max: 2 }));
  assign(request, 'topP', readNumber(body, 'top_p', { min: 0, max: 1 }));
  assign(request, 'n', readNumber(body, 'n', { integer: true, min: 1, max: 128 }));
  assign(request, 'presencePenalty', readNumber(body, 'presence_penalty', { min: -2, max: 2 }));
  assign(request, 'frequencyPenalty', readNumber(body, 'frequency_penalty', { min: -2, max: 2 }));
  assign(request, 'seed', readNumber(body, 'seed', { integer: true }));
  assign(request, 'stopSequences', stopSequences);
  assign(request, 'responseFormat', decodeResponseFormat(body));
  const effort = readEnum(body, 'reasoning_effort', REASONING_EFFORTS);
  if (effort) request.reasoning = effort === 'none' ? { enabled: false, effort } : { effort };
  assign(request, 'user', readString(body, 'safety_identifier') ?? readString(body, 'user'));
  assign(request, 'metadata', readStringMap(body, 'metadata'));
  if (body.functions !== undefined || body.function_call !== undefined) {
    throw invalidRequest('functions', "The legacy 'functions' and 'function_call' parameters are not supported; use 'tools' and 'tool_choice'.");
  }

  const extension: JsonObject = pickUnknownFields(body, MAPPED_FIELDS);
  if (includeUsage !== undefined) extension.include_usage = includeUsage;
  if (Object.keys(extension).length > 0) request.extensions['openai-chat'] = extension;
  return { request, warnings };
}

function assign<K extends keyof GenerateRequest>(request: GenerateRequest, key: K, value: GenerateRequest[K] | undefined): void {
  if (value !== undefined) request[key] = value;
}

function decodeResponseFormat(body: JsonObject): ResponseFormat | undefined {
  const format = readObject(body, 'response_format');
  if (!format) return undefined;
  const type = readEnum(format, 'type', ['text', 'json_object', 'json_schema'], 'response_format.type');
  if (type === undefined) throw invalidRequest('response_format.type', "Missing required parameter: 'response_format.type'.");
  if (type === 'text') return { type: 'text' };
  if (type === 'json_object') return { type: 'json' };
  const jsonSchema = requireObject(format.json_schema, 'response_format.json_schema');
  const name = requireNonEmptyString(jsonSchema, 'name', 'response_format.json_schema.name');
  const schema = readObject(jsonSchema, 'schema', 'response_format.json_schema.schema');
  const description = readString(jsonSchema, 'description', 'response_format.json_schema.description');
  const strict = readBoolean(jsonSchema, 'strict', 'response_format.json_schema.strict');
  return {
    type: 'json',
    name,
    ...(schema && { schema }),
    ...(description !== undefined && { description }),
    ...(strict !== undefined && { strict }),
  };
}
