import { invalidRequest } from '../../core/gateway-error.js';
import type { GenerateRequest, ReasoningConfig, ReasoningEffort, ResponseFormat } from '../../core/generate-request.js';
import type { ProtocolMetadata } from '../../core/protocol.js';
import type { Warning } from '../../core/warning.js';
import { pickUnknownFields, readArray, readBoolean, readNumber, readObject, readString, type JsonObject } from '../read-fields.js';
import { readCamelCaseFields, type CamelCaseFields } from './camel-case-fields.js';
import { convertGeminiSchemaToJsonSchema } from './convert-schema.js';

/**
 * A JSON response format that also carries the schema as the client sent it. The core's
 * ResponseFormat has no protocolMetadata yet; the encoder reads it back through this type.
 */
export type GeminiResponseFormat = ResponseFormat & { protocolMetadata?: ProtocolMetadata };

const MAPPED_FIELDS = new Set([
  'temperature', 'topP', 'topK', 'candidateCount', 'maxOutputTokens', 'stopSequences', 'presencePenalty',
  'frequencyPenalty', 'seed', 'responseMimeType', 'responseSchema', 'responseJsonSchema', 'thinkingConfig',
]);
const THINKING_LEVELS = ['MINIMAL', 'LOW', 'MEDIUM', 'HIGH'] as const;
/** Gemini allows at most 5 stop sequences (docs/protocols.md §4.1). */
export const GEMINI_MAX_STOP_SEQUENCES = 5;

/**
 * `generationConfig` → the request's sampling, output and reasoning fields. Returns the fields the
 * core has no place for (`responseModalities`, `speechConfig`, ...), keyed `generationConfig.<field>`
 * for `extensions.gemini`, so a Gemini upstream still gets them and other upstreams warn.
 */
export function decodeGeminiGenerationConfig(rawConfig: unknown, param: string, request: GenerateRequest, warnings: Warning[]): JsonObject {
  const config = readCamelCaseFields(rawConfig, param);
  const fields = config.fields;
  const assign = <K extends keyof GenerateRequest>(key: K, value: GenerateRequest[K] | undefined) => {
    if (value !== undefined) request[key] = value;
  };
  assign('temperature', readNumber(fields, 'temperature', { min: 0, max: 2 }, config.param('temperature')));
  assign('topP', readNumber(fields, 'topP', { min: 0, max: 1 }, config.param('topP')));
  assign('topK', readNumber(fields, 'topK', { integer: true, min: 1 }, config.param('topK')));
  assign('n', readNumber(fields, 'candidateCount', { integer: true, min: 1, max: 8 }, config.param('candidateCount')));
  assign('maxOutputTokens', readNumber(fields, 'maxOutputTokens', { integer: true, min: 1 }, config.param('maxOutputTokens')));
  assign('presencePenalty', readNumber(fields, 'presencePenalty', { min: -2, max: 2 }, config.param('presencePenalty')));
  assign('frequencyPenalty', readNumber(fields, 'frequencyPenalty', { min: -2, max: 2 }, config.param('frequencyPenalty')));
  assign('seed', readNumber(fields, 'seed', { integer: true }, config.param('seed')));
  assign('stopSequences', decodeStopSequences(config));
  assign('reasoning', decodeThinkingConfig(config, warnings));

  const extension: JsonObject = {};
  const format = decodeResponseFormat(config);
  if (format === 'unmapped') {
    // `text/x.enum` and other MIME types: only Gemini knows what they mean.
    for (const key of ['responseMimeType', 'responseSchema', 'responseJsonSchema']) {
      if (fields[key] !== undefined) extension[`generationConfig.${key}`] = fields[key];
    }
  } else if (format) request.responseFormat = format;
  for (const [key, value] of Object.entries(pickUnknownFields(fields, MAPPED_FIELDS))) extension[`generationConfig.${key}`] = value;
  return extension;
}

function decodeStopSequences(config: CamelCaseFields): string[] | undefined {
  const param = config.param('stopSequences');
  const values = readArray(config.fields, 'stopSequences', param);
  if (values === undefined) return undefined;
  if (values.length > GEMINI_MAX_STOP_SEQUENCES) throw invalidRequest(param, `Invalid '${param}': at most ${GEMINI_MAX_STOP_SEQUENCES} stop sequences are allowed.`);
  return values.map((value, index) => {
    if (typeof value !== 'string') throw invalidRequest(`${param}[${index}]`, `Invalid type for '${param}[${index}]': expected a string.`);
    return value;
  });
}

function decodeResponseFormat(config: CamelCaseFields): GeminiResponseFormat | 'unmapped' | undefined {
  const mimeType = readString(config.fields, 'responseMimeType', config.param('responseMimeType'));
  const openApiSchema = readObject(config.fields, 'responseSchema', config.param('responseSchema'));
  const jsonSchema = readObject(config.fields, 'responseJsonSchema', config.param('responseJsonSchema'));
  if (openApiSchema && jsonSchema) {
    throw invalidRequest(config.param('responseJsonSchema'), `'${config.param('responseSchema')}' and '${config.param('responseJsonSchema')}' cannot be used together.`);
  }
  if (mimeType === 'text/plain') return { type: 'text' };
  // A schema without a MIME type can only mean JSON.
  if (mimeType !== undefined && mimeType !== 'application/json') return 'unmapped';
  if (mimeType === undefined && !openApiSchema && !jsonSchema) return undefined;
  const sent = jsonSchema ? { responseJsonSchema: jsonSchema } : openApiSchema ? { responseSchema: openApiSchema } : undefined;
  if (!sent) return { type: 'json' };
  const schema = convertGeminiSchemaToJsonSchema(jsonSchema ?? openApiSchema!);
  // Gemini CLI writes upper-case types; the core gets lower case, a Gemini upstream the original.
  const unchanged = JSON.stringify(schema) === JSON.stringify(jsonSchema ?? openApiSchema);
  const format: GeminiResponseFormat = { type: 'json', schema, ...(!unchanged && { protocolMetadata: { gemini: sent } }) };
  return format;
}

/**
 * `thinkingConfig` → reasoning: `thinkingBudget` 0 turns thinking off, -1 is dynamic (on, no
 * budget), any other value is the budget; `thinkingLevel` is the effort (docs/protocols.md §7.3).
 */
function decodeThinkingConfig(config: CamelCaseFields, warnings: Warning[]): ReasoningConfig | undefined {
  if (config.fields.thinkingConfig === undefined || config.fields.thinkingConfig === null) return undefined;
  const thinking = readCamelCaseFields(config.fields.thinkingConfig, config.param('thinkingConfig'));
  const reasoning: ReasoningConfig = {};
  const budget = readNumber(thinking.fields, 'thinkingBudget', { integer: true, min: -1 }, thinking.param('thinkingBudget'));
  if (budget === 0) reasoning.enabled = false;
  else if (budget === -1) reasoning.enabled = true;
  else if (budget !== undefined) {
    reasoning.enabled = true;
    reasoning.budgetTokens = budget;
  }
  const level = readString(thinking.fields, 'thinkingLevel', thinking.param('thinkingLevel'))?.toUpperCase();
  if (level !== undefined && level !== 'THINKING_LEVEL_UNSPECIFIED') {
    if (!(THINKING_LEVELS as readonly string[]).includes(level)) {
      throw invalidRequest(thinking.param('thinkingLevel'), `Invalid value for '${thinking.param('thinkingLevel')}': '${level}'. Supported values are: ${THINKING_LEVELS.join(', ')}.`);
    }
    reasoning.effort = level.toLowerCase() as ReasoningEffort;
  }
  const includeThoughts = readBoolean(thinking.fields, 'includeThoughts', thinking.param('includeThoughts'));
  if (includeThoughts !== undefined) reasoning.includeThoughts = includeThoughts;
  for (const key of Object.keys(pickUnknownFields(thinking.fields, new Set(['thinkingBudget', 'thinkingLevel', 'includeThoughts'])))) {
    warnings.push({ type: 'dropped', feature: thinking.param(key), details: 'not supported by the gateway' });
  }
  return Object.keys(reasoning).length > 0 ? reasoning : undefined;
}
