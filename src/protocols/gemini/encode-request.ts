import type { GenerateRequest, ReasoningConfig, ReasoningEffort, ToolChoice } from '../../core/generate-request.js';
import type { Warning } from '../../core/warning.js';
import { warnForeignExtensions } from '../foreign-extensions.js';
import type { EncodedRequest, EncodeRequestOptions } from '../protocol-codec.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import type { GeminiResponseFormat } from './decode-generation-config.js';
import { GEMINI_MAX_STOP_SEQUENCES } from './decode-generation-config.js';
import { geminiMetadataOf } from './decode-part.js';
import { encodeGeminiContents } from './encode-contents.js';
import { geminiGeneratePath } from './generate-path.js';

/** GenerateRequest → Gemini `generateContent` request (docs/protocols.md §4.1, §6). */
export function encodeGeminiRequest(request: GenerateRequest, options: EncodeRequestOptions): EncodedRequest {
  const warnings: Warning[] = [];
  const { systemInstruction, contents } = encodeGeminiContents(request, warnings);
  const body: JsonObject = { contents };
  if (systemInstruction) body.systemInstruction = systemInstruction;

  const declarations: JsonObject[] = [];
  const providerTools: JsonObject[] = [];
  for (const tool of request.tools) {
    if (tool.type === 'function') {
      const fields = geminiMetadataOf(tool).declarationFields;
      const declarationFields: JsonObject = isJsonObject(fields) ? fields : {};
      if (tool.strict) warnings.push({ type: 'dropped', feature: `tool ${tool.name} strict`, details: 'Gemini has no strict schema mode' });
      declarations.push({
        name: tool.name,
        ...(tool.description !== undefined && { description: tool.description }),
        // JSON Schema as is (`parameters` only takes Gemini's OpenAPI subset), unless the client
        // sent the OpenAPI form, which goes back unchanged.
        ...(declarationFields.parameters === undefined && { parametersJsonSchema: tool.inputSchema }),
        ...declarationFields,
      });
    } else if (tool.protocol === 'gemini') {
      providerTools.push(tool.raw);
    } else {
      warnings.push({ type: 'dropped', feature: `tool ${tool.name}`, details: 'a built-in tool of another vendor' });
    }
  }
  const tools = [...(declarations.length > 0 ? [{ functionDeclarations: declarations }] : []), ...providerTools];
  if (tools.length > 0) body.tools = tools;
  if (request.toolChoice && declarations.length > 0) body.toolConfig = { functionCallingConfig: encodeToolChoice(request.toolChoice) };
  if (request.parallelToolCalls === false) warnings.push({ type: 'dropped', feature: 'parallel_tool_calls', details: 'Gemini cannot disable parallel function calls' });

  const generationConfig = encodeGenerationConfig(request, warnings);
  if (request.user !== undefined) warnings.push({ type: 'dropped', feature: 'user', details: 'Gemini has no end-user id' });
  if (request.metadata !== undefined) warnings.push({ type: 'dropped', feature: 'metadata', details: 'Gemini has no request metadata' });

  // Fields only Gemini understands, as the client sent them: `generationConfig.*` and `toolConfig.*`
  // keys go inside those objects, the rest at the top.
  for (const [key, value] of Object.entries(request.extensions.gemini ?? {})) {
    const [container, field] = key.split('.', 2);
    if (field !== undefined && container === 'generationConfig') generationConfig[field] = value;
    else if (field !== undefined && container === 'toolConfig') body.toolConfig = Object.assign({}, body.toolConfig, { [field]: value });
    else body[key] = value;
  }
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  warnings.push(...warnForeignExtensions(request, 'gemini'));
  return { path: geminiGeneratePath(options.model, request.stream), body, warnings };
}

function encodeToolChoice(choice: ToolChoice): JsonObject {
  switch (choice.type) {
    case 'auto':
      return { mode: 'AUTO' };
    case 'none':
      return { mode: 'NONE' };
    case 'required':
      return { mode: 'ANY' };
    case 'tool':
      return { mode: 'ANY', allowedFunctionNames: [choice.toolName] };
    default: {
      const unexpected: never = choice;
      throw new Error(`Unhandled tool choice ${JSON.stringify(unexpected)}`);
    }
  }
}

function encodeGenerationConfig(request: GenerateRequest, warnings: Warning[]): JsonObject {
  const config: JsonObject = {};
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.topK !== undefined) config.topK = request.topK;
  if (request.n !== undefined) config.candidateCount = request.n;
  if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
  if (request.stopSequences?.length) {
    config.stopSequences = request.stopSequences.slice(0, GEMINI_MAX_STOP_SEQUENCES);
    if (request.stopSequences.length > GEMINI_MAX_STOP_SEQUENCES) {
      warnings.push({ type: 'changed', feature: 'stop_sequences', details: `only the first ${GEMINI_MAX_STOP_SEQUENCES} are sent` });
    }
  }
  if (request.presencePenalty !== undefined) config.presencePenalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) config.frequencyPenalty = request.frequencyPenalty;
  if (request.seed !== undefined) config.seed = request.seed;
  const format: GeminiResponseFormat | undefined = request.responseFormat;
  if (format?.type === 'text') config.responseMimeType = 'text/plain';
  else if (format?.type === 'json') {
    config.responseMimeType = 'application/json';
    // The schema as the client sent it (Gemini to Gemini), else the core's JSON Schema as is.
    const sent = format.protocolMetadata?.gemini;
    if (sent && Object.keys(sent).length > 0) Object.assign(config, sent);
    else if (format.schema) config.responseJsonSchema = format.schema;
    // Gemini always holds to the schema (no strict flag) and needs no name; a description has no field.
    if (format.description !== undefined) warnings.push({ type: 'dropped', feature: 'response_format description', details: 'Gemini takes only the schema' });
  }
  const thinkingConfig = encodeThinkingConfig(request.reasoning, warnings);
  if (thinkingConfig) config.thinkingConfig = thinkingConfig;
  return config;
}

const THINKING_LEVELS: Record<Exclude<ReasoningEffort, 'none'>, string> = {
  minimal: 'MINIMAL',
  low: 'LOW',
  medium: 'MEDIUM',
  high: 'HIGH',
  xhigh: 'HIGH',
  max: 'HIGH',
};

/**
 * Reasoning → `thinkingConfig` (docs/protocols.md §7.3): a budget is `thinkingBudget` (0 = off, -1 =
 * dynamic), an effort is `thinkingLevel`. Gemini rejects both at once, so a budget wins.
 */
function encodeThinkingConfig(reasoning: ReasoningConfig | undefined, warnings: Warning[]): JsonObject | undefined {
  if (!reasoning) return undefined;
  const config: JsonObject = {};
  if (reasoning.enabled === false || reasoning.effort === 'none') config.thinkingBudget = 0;
  else if (reasoning.budgetTokens !== undefined) {
    config.thinkingBudget = reasoning.budgetTokens;
    if (reasoning.effort) warnings.push({ type: 'dropped', feature: 'reasoning effort', details: 'Gemini takes a thinking budget or a level, not both; the budget is sent' });
  } else if (reasoning.effort) {
    config.thinkingLevel = THINKING_LEVELS[reasoning.effort];
    if (reasoning.effort === 'xhigh' || reasoning.effort === 'max') {
      warnings.push({ type: 'changed', feature: 'reasoning effort', details: `'${reasoning.effort}' sent as thinkingLevel HIGH, Gemini's highest` });
    }
  } else if (reasoning.enabled === true) config.thinkingBudget = -1;
  if (reasoning.includeThoughts !== undefined) config.includeThoughts = reasoning.includeThoughts;
  return Object.keys(config).length > 0 ? config : undefined;
}
