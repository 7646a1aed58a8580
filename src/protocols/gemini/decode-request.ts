import type { TextPart } from '../../core/content-part.js';
import { invalidRequest } from '../../core/gateway-error.js';
import type { GenerateRequest } from '../../core/generate-request.js';
import type { Warning } from '../../core/warning.js';
import type { DecodedRequest, DecodeRequestOptions } from '../protocol-codec.js';
import { pickUnknownFields, readArray, requireArray, requireString, type JsonObject } from '../read-fields.js';
import { readCamelCaseFields } from './camel-case-fields.js';
import { decodeGeminiContents } from './decode-contents.js';
import { decodeGeminiGenerationConfig } from './decode-generation-config.js';
import { decodeGeminiToolConfig, decodeGeminiTools } from './decode-tools.js';

/**
 * Fields this codec maps to the core. `model` may appear in REST bodies but the path decides.
 * Any other field (`safetySettings`, `cachedContent`, `labels`, ...) rides in `extensions.gemini`.
 */
const MAPPED_FIELDS = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig', 'model']);

/**
 * Gemini `generateContent` request → GenerateRequest (docs/protocols.md §4.1). The model and streaming
 * come from the URL (`/v1beta/models/{model}:streamGenerateContent`); camelCase and snake_case
 * keys are both accepted, as Google does.
 */
export function decodeGeminiRequest(input: unknown, options: DecodeRequestOptions): DecodedRequest {
  const body = readCamelCaseFields(input, '');
  const warnings: Warning[] = [];
  const model = options.pathModel?.replace(/^models\//, '');
  if (!model) throw invalidRequest('model', 'Missing model: Gemini requests name it in the path, /v1beta/models/{model}:generateContent.');

  const rawContents = requireArray(body.fields, 'contents', body.param('contents'));
  if (rawContents.length === 0) throw invalidRequest(body.param('contents'), `Invalid '${body.param('contents')}': empty array. At least one turn is required.`);

  const request: GenerateRequest = {
    model,
    system: decodeSystemInstruction(body.fields.systemInstruction, body.param('systemInstruction')),
    messages: decodeGeminiContents(rawContents, warnings),
    tools: decodeGeminiTools(readArray(body.fields, 'tools', body.param('tools')) ?? []),
    stream: options.stream ?? false,
    extensions: {},
  };
  const extension: JsonObject = pickUnknownFields(body.fields, MAPPED_FIELDS);
  if (body.fields.toolConfig !== undefined && body.fields.toolConfig !== null) {
    const toolConfig = decodeGeminiToolConfig(body.fields.toolConfig, body.param('toolConfig'));
    if (toolConfig.toolChoice) request.toolChoice = toolConfig.toolChoice;
    Object.assign(extension, toolConfig.extension);
  }
  if (body.fields.generationConfig !== undefined && body.fields.generationConfig !== null) {
    Object.assign(extension, decodeGeminiGenerationConfig(body.fields.generationConfig, body.param('generationConfig'), request, warnings));
  }
  if (Object.keys(extension).length > 0) request.extensions.gemini = extension;
  return { request, warnings };
}

/** `systemInstruction` is a Content whose text parts are the instructions (role is ignored). */
function decodeSystemInstruction(value: unknown, param: string): TextPart[] {
  if (value === undefined || value === null) return [];
  // The SDK turns a string into a Content before sending; REST clients sometimes send the string.
  if (typeof value === 'string') return [{ type: 'text', text: value }];
  const content = readCamelCaseFields(value, param);
  const parts = requireArray(content.fields, 'parts', content.param('parts'));
  return parts.map((rawPart, index) => {
    const part = readCamelCaseFields(rawPart, `${content.param('parts')}[${index}]`);
    if (part.fields.text === undefined) throw invalidRequest(part.param('text'), `'${param}' takes text parts only.`);
    return { type: 'text', text: requireString(part.fields, 'text', part.param('text')) };
  });
}
