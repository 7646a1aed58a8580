import { invalidRequest } from '../../core/gateway-error.js';
import type { GenerateRequest, ReasoningConfig, ResponseFormat } from '../../core/generate-request.js';
import type { DecodedRequest } from '../protocol-codec.js';
import {
  pickUnknownFields,
  readArray,
  readBoolean,
  readEnum,
  readNumber,
  readObject,
  readString,
  requireArray,
  requireNonEmptyString,
  requireObject,
  type JsonObject,
} from '../read-fields.js';
import { ANTHROPIC_UNMAPPED_BLOCKS_KEY } from './block-metadata.js';
import { decodeAnthropicMessages, decodeAnthropicSystem } from './decode-messages.js';
import { decodeAnthropicToolChoice, decodeAnthropicTools } from './decode-tools.js';

/**
 * Fields this codec maps to the core; any other field (context_management, container,
 * service_tier, cache_control, inference_geo, ...) rides in `extensions['anthropic-messages']`.
 */
const MAPPED_FIELDS = new Set([
  'model', 'max_tokens', 'messages', 'system', 'stop_sequences', 'temperature', 'top_p', 'top_k', 'stream', 'tools',
  'tool_choice', 'thinking', 'output_config', 'metadata',
]);

const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;

/** Anthropic Messages request → GenerateRequest, validating every field (docs/protocols.md §2.1). */
export function decodeAnthropicMessagesRequest(input: unknown): DecodedRequest {
  const body = requireObject(input, 'body');
  const model = requireNonEmptyString(body, 'model');
  const maxTokens = readNumber(body, 'max_tokens', { integer: true, min: 1 });
  if (maxTokens === undefined) throw invalidRequest('max_tokens', "Missing required parameter: 'max_tokens'.");
  const rawMessages = requireArray(body, 'messages');
  if (rawMessages.length === 0) throw invalidRequest('messages', "Invalid 'messages': empty array. Expected an array with minimum length 1.");
  const { messages, unmappedBlocks } = decodeAnthropicMessages(rawMessages);
  const extension: JsonObject = pickUnknownFields(body, MAPPED_FIELDS);

  const request: GenerateRequest = {
    model,
    system: decodeAnthropicSystem(body.system),
    messages,
    tools: decodeAnthropicTools(body),
    maxOutputTokens: maxTokens,
    stream: readBoolean(body, 'stream') ?? false,
    extensions: {},
  };
  Object.assign(request, decodeAnthropicToolChoice(body));
  assign(request, 'temperature', readNumber(body, 'temperature', { min: 0, max: 1 }));
  assign(request, 'topP', readNumber(body, 'top_p', { min: 0, max: 1 }));
  assign(request, 'topK', readNumber(body, 'top_k', { integer: true, min: 0 }));
  assign(request, 'stopSequences', readStopSequences(body));

  const thinking = decodeThinking(body, extension);
  const { effort, responseFormat } = decodeOutputConfig(body, extension);
  if (thinking || effort) request.reasoning = Object.assign({}, thinking, effort && { effort });
  assign(request, 'responseFormat', responseFormat);

  const metadata = readObject(body, 'metadata');
  if (metadata) {
    assign(request, 'user', readString(metadata, 'user_id', 'metadata.user_id'));
    // Anthropic's metadata has only user_id today; anything newer goes back as it came.
    if (Object.keys(metadata).some((key) => key !== 'user_id')) extension.metadata = metadata;
  }

  if (unmappedBlocks.length > 0) extension[ANTHROPIC_UNMAPPED_BLOCKS_KEY] = unmappedBlocks;
  if (Object.keys(extension).length > 0) request.extensions['anthropic-messages'] = extension;
  return { request, warnings: [] };
}

function assign<K extends keyof GenerateRequest>(request: GenerateRequest, key: K, value: GenerateRequest[K] | undefined): void {
  if (value !== undefined) request[key] = value;
}

function readStopSequences(body: JsonObject): string[] | undefined {
  return readArray(body, 'stop_sequences')?.map((entry, index) => {
    if (typeof entry !== 'string') throw invalidRequest(`stop_sequences[${index}]`, `Invalid type for 'stop_sequences[${index}]': expected a string.`);
    return entry;
  });
}

/**
 * `thinking`: enabled (with a budget), adaptive (the model decides), disabled. `display` and the
 * `between_tools` mode have no core field: the original object rides in the extension, so an
 * Anthropic upstream gets it back as sent.
 */
function decodeThinking(body: JsonObject, extension: JsonObject): ReasoningConfig | undefined {
  const thinking = readObject(body, 'thinking');
  if (!thinking) return undefined;
  const type = readEnum(thinking, 'type', ['enabled', 'adaptive', 'disabled', 'between_tools'] as const, 'thinking.type');
  if (type === undefined) throw invalidRequest('thinking.type', "Missing required parameter: 'thinking.type'.");
  if (type === 'between_tools' || (thinking.display !== undefined && thinking.display !== null)) extension.thinking = thinking;
  switch (type) {
    case 'enabled': {
      const budgetTokens = readNumber(thinking, 'budget_tokens', { integer: true, min: 1024 }, 'thinking.budget_tokens');
      if (budgetTokens === undefined) throw invalidRequest('thinking.budget_tokens', "Missing required parameter: 'thinking.budget_tokens'.");
      return { enabled: true, budgetTokens };
    }
    case 'adaptive':
    case 'between_tools':
      return { enabled: true };
    case 'disabled':
      return { enabled: false };
    default: {
      const unexpected: never = type;
      throw new Error(`Unhandled thinking type ${String(unexpected)}`);
    }
  }
}

/** `output_config`: effort → reasoning effort, format (json_schema) → response format. */
function decodeOutputConfig(body: JsonObject, extension: JsonObject): { effort?: (typeof EFFORTS)[number]; responseFormat?: ResponseFormat } {
  const outputConfig = readObject(body, 'output_config');
  if (!outputConfig) return {};
  const effort = readEnum(outputConfig, 'effort', EFFORTS, 'output_config.effort');
  const format = readObject(outputConfig, 'format', 'output_config.format');
  let responseFormat: ResponseFormat | undefined;
  if (format) {
    const type = readEnum(format, 'type', ['json_schema'] as const, 'output_config.format.type');
    if (type === undefined) throw invalidRequest('output_config.format.type', "Missing required parameter: 'output_config.format.type'.");
    const schema = readObject(format, 'schema', 'output_config.format.schema');
    if (!schema) throw invalidRequest('output_config.format.schema', "Missing required parameter: 'output_config.format.schema'.");
    responseFormat = { type: 'json', schema };
  }
  // Fields newer than this codec go back to an Anthropic upstream with the whole object.
  if (Object.keys(outputConfig).some((key) => key !== 'effort' && key !== 'format')) extension.output_config = outputConfig;
  return { effort, responseFormat };
}
