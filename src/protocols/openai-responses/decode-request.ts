import { invalidRequest } from '../../core/gateway-error.js';
import type { GenerateRequest, ReasoningConfig, ReasoningEffort, ResponseFormat, Tool, ToolChoice } from '../../core/generate-request.js';
import type { Warning } from '../../core/warning.js';
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
  requireNonEmptyString,
  requireObject,
  requireString,
  type JsonObject,
} from '../read-fields.js';
import { decodeOpenAIResponsesCustomTool } from './convert-custom-tool.js';
import { decodeOpenAIResponsesInput } from './decode-input-items.js';

const REASONING_EFFORTS: readonly ReasoningEffort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];
const REASONING_SUMMARIES = ['auto', 'concise', 'detailed'] as const;

/**
 * Fields this codec maps to the core. Any other field (store, include, prompt_cache_key,
 * service_tier, truncation, background, stream_options, ...) rides in `extensions['openai-responses']`.
 */
const MAPPED_FIELDS = new Set([
  'model', 'input', 'instructions', 'stream', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_output_tokens',
  'temperature', 'top_p', 'text', 'reasoning', 'metadata', 'user', 'safety_identifier',
]);

/** Extension key of the input items the core cannot hold (see KeptInputItem). */
export const KEPT_INPUT_ITEMS_KEY = 'responses_only_input_items';

/** OpenAI Responses request → GenerateRequest, validating every mapped field (docs/protocols.md §3.1). */
export function decodeOpenAIResponsesRequest(input: unknown): DecodedRequest {
  const body = requireObject(input, 'body');
  const warnings: Warning[] = [];
  const model = requireNonEmptyString(body, 'model');
  // `input` may only be left out when a stored prompt template supplies it.
  if ((body.input === undefined || body.input === null) && body.prompt === undefined) {
    throw invalidRequest('input', "Missing required parameter: 'input'.");
  }
  const { system, messages, keptItems, additionalTools, storedItemReference } = decodeOpenAIResponsesInput(body.input ?? undefined, readString(body, 'instructions'));
  const sameProtocolOnly = findStoredStateReference(body, storedItemReference);

  // `null` means absent in this API; kept, it would only make other upstreams warn about nothing.
  const extension: JsonObject = Object.fromEntries(Object.entries(pickUnknownFields(body, MAPPED_FIELDS)).filter(([, value]) => value !== null));
  const request: GenerateRequest = {
    model,
    system,
    messages,
    tools: decodeTools(readArray(body, 'tools') ?? [], 'tools').concat(decodeTools(additionalTools, 'input[].tools')),
    stream: readBoolean(body, 'stream') ?? false,
    extensions: {},
  };
  assign(request, 'toolChoice', decodeToolChoice(body.tool_choice, extension));
  assign(request, 'parallelToolCalls', readBoolean(body, 'parallel_tool_calls'));
  assign(request, 'maxOutputTokens', readNumber(body, 'max_output_tokens', { integer: true, min: 1 }));
  assign(request, 'temperature', readNumber(body, 'temperature', { min: 0, max: 2 }));
  assign(request, 'topP', readNumber(body, 'top_p', { min: 0, max: 1 }));
  assign(request, 'responseFormat', decodeText(body, extension));
  assign(request, 'reasoning', decodeReasoning(body, extension));
  assign(request, 'user', readString(body, 'safety_identifier') ?? readString(body, 'user'));
  assign(request, 'metadata', readStringMap(body, 'metadata'));
  if (keptItems.length > 0) extension[KEPT_INPUT_ITEMS_KEY] = keptItems;
  if (Object.keys(extension).length > 0) request.extensions['openai-responses'] = extension;
  return { request, warnings, ...(sameProtocolOnly && { sameProtocolOnly }) };
}

function assign<K extends keyof GenerateRequest>(request: GenerateRequest, key: K, value: GenerateRequest[K] | undefined): void {
  if (value !== undefined) request[key] = value;
}

const FUNCTION_TOOL_FIELDS = new Set(['type', 'name', 'description', 'parameters', 'strict']);

/**
 * Function tools are flat in Responses. A `namespace` (Codex groups its tools in them) gives its
 * tools by their own names, and a `custom` (freeform) tool becomes a function taking `{input}`
 * (convert-custom-tool.ts), so that upstreams of other protocols can call them; every other tool
 * type is the vendor's own (web_search, tool_search, ...).
 */
function decodeTools(list: readonly unknown[], listParam: string): Tool[] {
  return list.flatMap((raw, index): Tool[] => {
    const param = `${listParam}[${index}]`;
    const tool = requireObject(raw, param);
    const type = requireString(tool, 'type', `${param}.type`);
    if (type === 'namespace') return decodeTools(readArray(tool, 'tools', `${param}.tools`) ?? [], `${param}.tools`);
    if (type === 'custom') return [decodeOpenAIResponsesCustomTool(tool, requireNonEmptyString(tool, 'name', `${param}.name`))];
    if (type !== 'function') {
      return [{ type: 'provider', protocol: 'openai-responses', name: typeof tool.name === 'string' ? tool.name : type, raw: tool }];
    }
    if (tool.name === undefined && isJsonObject(tool.function)) {
      throw invalidRequest(`${param}.name`, `Missing required parameter: '${param}.name'. Responses function tools are flat: {type: 'function', name, parameters}, without the Chat Completions 'function' wrapper.`);
    }
    const name = requireNonEmptyString(tool, 'name', `${param}.name`);
    const description = readString(tool, 'description', `${param}.description`);
    const strict = readBoolean(tool, 'strict', `${param}.strict`);
    // Newer fields (defer_loading, output_schema, ...) go back to a Responses upstream unchanged.
    const extra = pickUnknownFields(tool, FUNCTION_TOOL_FIELDS);
    return [
      {
        type: 'function',
        name,
        inputSchema: readObject(tool, 'parameters', `${param}.parameters`) ?? { type: 'object', properties: {} },
        ...(description !== undefined && { description }),
        ...(strict !== undefined && { strict }),
        ...(Object.keys(extra).length > 0 && { protocolMetadata: { 'openai-responses': extra } }),
      },
    ];
  });
}

/** Forms the core cannot express (allowed_tools, custom, built-in, mcp) stay in the extension. */
function decodeToolChoice(value: unknown, extension: JsonObject): ToolChoice | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'auto' || value === 'none' || value === 'required') return { type: value };
  if (isJsonObject(value) && value.type === 'function') return { type: 'tool', toolName: requireNonEmptyString(value, 'name', 'tool_choice.name') };
  if (isJsonObject(value) && typeof value.type === 'string') {
    extension.tool_choice = value;
    return undefined;
  }
  throw invalidRequest('tool_choice', "Invalid 'tool_choice': expected 'none', 'auto', 'required' or an object such as {type: 'function', name}.");
}

/** `text.format` (flat json_schema); other `text` fields (verbosity) stay in the extension. */
function decodeText(body: JsonObject, extension: JsonObject): ResponseFormat | undefined {
  const text = readObject(body, 'text');
  if (!text) return undefined;
  const rest = pickUnknownFields(text, new Set(['format']));
  if (Object.keys(rest).length > 0) extension.text = rest;
  const format = readObject(text, 'format', 'text.format');
  if (!format) return undefined;
  const type = readEnum(format, 'type', ['text', 'json_object', 'json_schema'], 'text.format.type');
  if (type === undefined) throw invalidRequest('text.format.type', "Missing required parameter: 'text.format.type'.");
  if (type === 'text') return { type: 'text' };
  if (type === 'json_object') return { type: 'json' };
  const name = requireNonEmptyString(format, 'name', 'text.format.name');
  const schema = requireObject(format.schema, 'text.format.schema');
  const description = readString(format, 'description', 'text.format.description');
  const strict = readBoolean(format, 'strict', 'text.format.strict');
  return { type: 'json', name, schema, ...(description !== undefined && { description }), ...(strict !== undefined && { strict }) };
}

/** `reasoning.effort` and `summary` (any summary asks for reasoning text); other fields stay in the extension. */
function decodeReasoning(body: JsonObject, extension: JsonObject): ReasoningConfig | undefined {
  const reasoning = readObject(body, 'reasoning');
  if (!reasoning) return undefined;
  const effort = readEnum(reasoning, 'effort', REASONING_EFFORTS, 'reasoning.effort');
  const summary = readEnum(reasoning, 'summary', REASONING_SUMMARIES, 'reasoning.summary') ?? readEnum(reasoning, 'generate_summary', REASONING_SUMMARIES, 'reasoning.generate_summary');
  const rest = pickUnknownFields(reasoning, new Set(['effort', 'summary', 'generate_summary']));
  if (Object.keys(rest).length > 0) extension.reasoning = rest;
  const config: ReasoningConfig = {};
  if (effort) config.effort = effort;
  if (effort === 'none') config.enabled = false;
  if (summary) config.includeThoughts = true;
  return Object.keys(config).length > 0 ? config : undefined;
}

/**
 * `previous_response_id`, `conversation` and `item_reference` items point at what OpenAI stored:
 * a Responses upstream resolves them (passthrough), no other upstream can, and the gateway keeps
 * no copy of its own.
 */
function findStoredStateReference(body: JsonObject, storedItemReference: string | undefined): DecodedRequest['sameProtocolOnly'] {
  const field = ['previous_response_id', 'conversation'].find((name) => body[name] !== undefined && body[name] !== null) ?? storedItemReference;
  if (field === undefined) return undefined;
  return {
    param: field,
    message: `'${field}' refers to state stored by OpenAI, which only an OpenAI Responses upstream can look up; the gateway keeps none. Send the whole conversation in 'input' (with store: false, and include: ['reasoning.encrypted_content'] for reasoning models).`,
  };
}
