import type { AssistantPart, Message, TextPart, ToolResultPart, UserPart } from '../../core/content-part.js';
import { invalidRequest } from '../../core/gateway-error.js';
import type { GenerateRequest, ReasoningEffort, ResponseFormat, Tool, ToolChoice } from '../../core/generate-request.js';
import type { Warning } from '../../core/warning.js';
import { convertUrlToFileData, parseDataUrl } from '../data-url.js';
import type { DecodedRequest } from '../protocol-codec.js';
import {
  isJsonObject,
  pickUnknownFields,
  readArray,
  readBoolean,
  readEnum,
  readNumber,
  readObject,
  readString,
  readStringMap,
  requireArray,
  requireNonEmptyString,
  requireObject,
  requireString,
  type JsonObject,
} from '../read-fields.js';

const REASONING_EFFORTS: readonly ReasoningEffort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];

/** Fields this codec maps to the core; any other field rides in `extensions['openai-chat']`. */
const MAPPED_FIELDS = new Set([
  'model', 'messages', 'stream', 'stream_options', 'temperature', 'top_p', 'n', 'max_tokens', 'max_completion_tokens',
  'stop', 'presence_penalty', 'frequency_penalty', 'seed', 'tools', 'tool_choice', 'parallel_tool_calls',
  'response_format', 'reasoning_effort', 'user', 'safety_identifier', 'metadata', 'functions', 'function_call',
]);

/** OpenAI Chat Completions request → GenerateRequest, validating every field (SPEC.md, PROTOCOLS.md §1.1). */
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

function decodeMessages(rawMessages: unknown[], warnings: Warning[]): { system: TextPart[]; messages: Message[] } {
  const system: TextPart[] = [];
  const messages: Message[] = [];
  // Tool results need the tool's name (Gemini), which OpenAI only gives in the assistant's call.
  const toolNames = new Map<string, string>();

  rawMessages.forEach((raw, index) => {
    const param = `messages[${index}]`;
    const message = requireObject(raw, param);
    const role = requireString(message, 'role', `${param}.role`);
    if (message.name !== undefined && message.name !== null) {
      warnings.push({ type: 'dropped', feature: `${param}.name`, details: 'participant names are not forwarded' });
    }
    switch (role) {
      case 'system':
      case 'developer': {
        const parts = decodeTextContent(message.content, `${param}.content`);
        if (messages.length === 0) system.push(...parts);
        else messages.push({ role: 'system', content: parts });
        return;
      }
      case 'user':
        messages.push({ role: 'user', content: decodeUserContent(message.content, `${param}.content`) });
        return;
      case 'assistant': {
        const content: AssistantPart[] = [];
        const reasoning = readString(message, 'reasoning_content', `${param}.reasoning_content`) ?? readString(message, 'reasoning', `${param}.reasoning`);
        if (reasoning) content.push({ type: 'reasoning', text: reasoning });
        if (message.content !== undefined && message.content !== null) {
          content.push(...decodeTextContent(message.content, `${param}.content`, true));
        }
        const refusal = readString(message, 'refusal', `${param}.refusal`);
        if (refusal) content.push({ type: 'text', text: refusal });
        const toolCalls = readArray(message, 'tool_calls', `${param}.tool_calls`) ?? [];
        toolCalls.forEach((rawCall, callIndex) => {
          const callParam = `${param}.tool_calls[${callIndex}]`;
          const call = requireObject(rawCall, callParam);
          const id = requireString(call, 'id', `${callParam}.id`);
          const fn = requireObject(call.function, `${callParam}.function`);
          const name = requireString(fn, 'name', `${callParam}.function.name`);
          const args = readString(fn, 'arguments', `${callParam}.function.arguments`) ?? '';
          toolNames.set(id, name);
          content.push({ type: 'tool-call', toolCallId: id, toolName: name, input: args });
        });
        if (content.length === 0 && message.content === undefined) {
          throw invalidRequest(`${param}.content`, `Missing required parameter: '${param}.content'.`);
        }
        messages.push({ role: 'assistant', content });
        return;
      }
      case 'tool': {
        const toolCallId = requireString(message, 'tool_call_id', `${param}.tool_call_id`);
        const result: ToolResultPart = {
          type: 'tool-result',
          toolCallId,
          toolName: toolNames.get(toolCallId) ?? '',
          content: decodeUserContent(message.content, `${param}.content`),
        };
        const previous = messages[messages.length - 1];
        // One OpenAI tool message per call; the core keeps a turn's results together.
        if (previous?.role === 'tool') previous.content.push(result);
        else messages.push({ role: 'tool', content: [result] });
        return;
      }
      default:
        throw invalidRequest(
          `${param}.role`,
          `Invalid value for '${param}.role': '${role}'. Supported values are: 'system', 'developer', 'user', 'assistant' and 'tool'.`,
        );
    }
  });
  return { system, messages };
}

function decodeTextContent(content: unknown, param: string, allowRefusal = false): TextPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalidRequest(param, `Invalid type for '${param}': expected a string or an array of content parts.`);
  const parts: TextPart[] = [];
  content.forEach((rawPart, index) => {
    const part = requireObject(rawPart, `${param}[${index}]`);
    const type = requireString(part, 'type', `${param}[${index}].type`);
    if (type === 'text') parts.push({ type: 'text', text: requireString(part, 'text', `${param}[${index}].text`) });
    else if (type === 'refusal' && allowRefusal) parts.push({ type: 'text', text: requireString(part, 'refusal', `${param}[${index}].refusal`) });
    else throw invalidRequest(`${param}[${index}].type`, `Invalid value for '${param}[${index}].type': '${type}'. Only text parts are allowed here.`);
  });
  return parts;
}

function decodeUserContent(content: unknown, param: string): UserPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalidRequest(param, `Invalid type for '${param}': expected a string or an array of content parts.`);
  return content.map((rawPart, index): UserPart => {
    const partParam = `${param}[${index}]`;
    const part = requireObject(rawPart, partParam);
    const type = requireString(part, 'type', `${partParam}.type`);
    switch (type) {
      case 'text':
        return { type: 'text', text: requireString(part, 'text', `${partParam}.text`) };
      case 'image_url': {
        const image = requireObject(part.image_url, `${partParam}.image_url`);
        const url = requireNonEmptyString(image, 'url', `${partParam}.image_url.url`);
        const { mediaType, data } = convertUrlToFileData(url, 'image/*');
        const detail = readString(image, 'detail', `${partParam}.image_url.detail`);
        return { type: 'file', mediaType, data, ...(detail && { protocolMetadata: { 'openai-chat': { detail } } }) };
      }
      case 'input_audio': {
        const audio = requireObject(part.input_audio, `${partParam}.input_audio`);
        const base64 = requireString(audio, 'data', `${partParam}.input_audio.data`);
        const format = readEnum(audio, 'format', ['wav', 'mp3'], `${partParam}.input_audio.format`) ?? 'wav';
        return { type: 'file', mediaType: format === 'mp3' ? 'audio/mpeg' : 'audio/wav', data: { type: 'base64', base64 } };
      }
      case 'file': {
        const file = requireObject(part.file, `${partParam}.file`);
        const fileData = readString(file, 'file_data', `${partParam}.file.file_data`);
        const filename = readString(file, 'filename', `${partParam}.file.filename`);
        if (!fileData) {
          throw invalidRequest(`${partParam}.file.file_data`, `'${partParam}.file' needs 'file_data' (a base64 data URL); uploaded file ids are not available through the gateway.`);
        }
        const inline = parseDataUrl(fileData);
        return {
          type: 'file',
          mediaType: inline?.mediaType ?? 'application/pdf',
          data: { type: 'base64', base64: inline?.base64 ?? fileData },
          ...(filename && { filename }),
        };
      }
      default:
        throw invalidRequest(
          `${partParam}.type`,
          `Invalid value for '${partParam}.type': '${type}'. Supported values are: 'text', 'image_url', 'input_audio' and 'file'.`,
        );
    }
  });
}

function decodeTools(body: JsonObject): Tool[] {
  const rawTools = readArray(body, 'tools') ?? [];
  return rawTools.map((rawTool, index): Tool => {
    const param = `tools[${index}]`;
    const tool = requireObject(rawTool, param);
    const type = requireString(tool, 'type', `${param}.type`);
    if (type !== 'function') {
      return { type: 'provider', protocol: 'openai-chat', name: readString(tool, 'name') ?? type, raw: tool };
    }
    const fn = requireObject(tool.function, `${param}.function`);
    const name = requireNonEmptyString(fn, 'name', `${param}.function.name`);
    if (!/^[a-zA-Z0-9_.-]{1,128}$/.test(name)) {
      throw invalidRequest(`${param}.function.name`, `Invalid '${param}.function.name': '${name}' must match ^[a-zA-Z0-9_.-]{1,128}$.`);
    }
    const description = readString(fn, 'description', `${param}.function.description`);
    const parameters = readObject(fn, 'parameters', `${param}.function.parameters`) ?? { type: 'object', properties: {} };
    const strict = readBoolean(fn, 'strict', `${param}.function.strict`);
    return {
      type: 'function',
      name,
      inputSchema: parameters,
      ...(description !== undefined && { description }),
      ...(strict !== undefined && { strict }),
    };
  });
}

function decodeToolChoice(value: unknown): ToolChoice | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'auto' || value === 'none' || value === 'required') return { type: value };
  if (isJsonObject(value) && value.type === 'function') {
    const fn = requireObject(value.function, 'tool_choice.function');
    return { type: 'tool', toolName: requireNonEmptyString(fn, 'name', 'tool_choice.function.name') };
  }
  throw invalidRequest('tool_choice', "Invalid 'tool_choice': expected 'none', 'auto', 'required' or {type: 'function', function: {name}}.");
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
