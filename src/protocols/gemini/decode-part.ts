import type { AssistantPart, TextPart } from '../../core/content-part.js';
import type { ProtocolMetadata } from '../../core/protocol.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { camelCaseKeys } from './camel-case-fields.js';

/**
 * Gemini parts → core parts, shared by the request, response and stream decoders.
 *
 * What only Gemini can use again rides in `protocolMetadata.gemini`:
 * - `thoughtSignature`: the part's signature; Gemini 3 rejects history whose function calls lack it.
 * - `functionCallId`: `functionCall.id` when Gemini sent one (it is echoed in `functionResponse.id`).
 * - `functionResponseId`: `functionResponse.id` as a client sent it.
 * - `response`: a `functionResponse.response` that is not plain `{output}` / `{error}` text.
 * - `part`: a whole part the core has no type for (`executableCode`, `codeExecutionResult`, ...),
 *   kept as text for other protocols and restored as it was for Gemini.
 * - `partFields`: fields beside a part's data (`videoMetadata`, `mediaResolution`, `partMetadata`).
 * - `declarationFields` (on a function tool): a function declaration's schema as sent when the
 *   conversion to JSON Schema changed it, and fields the core has no place for (`behavior`, ...).
 * - `responseJsonSchema` / `responseSchema` (on a JSON response format): the schema as sent.
 */
export type GeminiMetadata = Record<string, unknown>;

/** Part keys that are not the part's data. */
const SIGNATURE_KEYS = new Set(['thought', 'thoughtSignature']);
export const PART_FIELD_KEYS = new Set(['videoMetadata', 'mediaResolution', 'partMetadata']);
/** Data keys the core has a part type for. */
export const KNOWN_DATA_KEYS = new Set(['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse']);

/** `{protocolMetadata: {gemini}}` holding the defined entries, or nothing when there are none. */
export function withGeminiMetadata(entries: GeminiMetadata): { protocolMetadata?: ProtocolMetadata } {
  const defined = Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
  return Object.keys(defined).length > 0 ? { protocolMetadata: { gemini: defined } } : {};
}

export function geminiMetadataOf(part: { protocolMetadata?: ProtocolMetadata }): GeminiMetadata {
  return part.protocolMetadata?.gemini ?? {};
}

/** The fields beside the data of a (camelCase) part, when it has any. */
export function geminiPartFieldsOf(part: JsonObject): JsonObject | undefined {
  const entries = Object.entries(part).filter(([key]) => PART_FIELD_KEYS.has(key));
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** The data key of a part the core has no type for (`executableCode`, `toolCall`, ...). */
export function geminiOpaqueKeyOf(part: JsonObject): string | undefined {
  return Object.keys(part).find((key) => !KNOWN_DATA_KEYS.has(key) && !SIGNATURE_KEYS.has(key) && !PART_FIELD_KEYS.has(key));
}

/**
 * Readable text for a part other protocols have no type for, so their clients still see what
 * the model did (Gemini's code execution writes the code and its output as separate parts).
 */
export function renderGeminiOpaquePart(key: string, value: unknown): string {
  const data = isJsonObject(value) ? camelCaseKeys(value) : {};
  if (key === 'executableCode' && typeof data.code === 'string') {
    const language = typeof data.language === 'string' && data.language !== 'LANGUAGE_UNSPECIFIED' ? data.language.toLowerCase() : '';
    return `\n\`\`\`${language}\n${data.code}\n\`\`\`\n`;
  }
  if (key === 'codeExecutionResult') {
    const outcome = typeof data.outcome === 'string' && data.outcome !== 'OUTCOME_OK' ? ` (${data.outcome})` : '';
    return `\nOutput${outcome}:\n\`\`\`\n${typeof data.output === 'string' ? data.output : ''}\n\`\`\`\n`;
  }
  return `\n[${key}] ${JSON.stringify(value)}\n`;
}

/** A part the core has no type for → readable text that carries the part itself for Gemini. */
export function decodeGeminiOpaquePart(part: JsonObject, key: string): TextPart {
  return { type: 'text', text: renderGeminiOpaquePart(key, part[key]), ...withGeminiMetadata({ part }) };
}

/**
 * Gemini often returns function calls without an id; the gateway needs one for the client to
 * answer with. Derived from the response id and the call's position so the same response decoded
 * as a stream or as JSON gets the same ids, and ids of different responses do not collide.
 */
export function synthesizeGeminiToolCallId(responseId: string | undefined, candidateIndex: number, callPosition: number): string {
  const prefix = responseId ? `call_${responseId.replace(/[^a-zA-Z0-9_-]/g, '_')}` : 'call';
  return `${prefix}_${candidateIndex}_${callPosition}`;
}

/**
 * One part of a model turn (a response candidate or a `model` turn of a request) → core part.
 * Lenient: the request decoder validates before calling it. `toolCallId` gives the id of a call
 * from its wire id (or the lack of one). Returns undefined for a part with no data at all.
 */
export function decodeGeminiModelPart(rawPart: JsonObject, toolCallId: (wireId: string | undefined) => string): AssistantPart | undefined {
  const part = camelCaseKeys(rawPart);
  const thoughtSignature = typeof part.thoughtSignature === 'string' ? part.thoughtSignature : undefined;
  const partFields = geminiPartFieldsOf(part);
  if (typeof part.text === 'string') {
    const metadata = withGeminiMetadata({ thoughtSignature, partFields });
    return part.thought === true ? { type: 'reasoning', text: part.text, ...metadata } : { type: 'text', text: part.text, ...metadata };
  }
  if (isJsonObject(part.inlineData)) {
    const inline = camelCaseKeys(part.inlineData);
    return {
      type: 'file',
      mediaType: typeof inline.mimeType === 'string' ? inline.mimeType : 'application/octet-stream',
      data: { type: 'base64', base64: typeof inline.data === 'string' ? inline.data : '' },
      ...(typeof inline.displayName === 'string' && { filename: inline.displayName }),
      ...withGeminiMetadata({ thoughtSignature, partFields }),
    };
  }
  if (isJsonObject(part.fileData)) {
    const file = camelCaseKeys(part.fileData);
    return {
      type: 'file',
      mediaType: typeof file.mimeType === 'string' ? file.mimeType : 'application/octet-stream',
      data: { type: 'url', url: typeof file.fileUri === 'string' ? file.fileUri : '' },
      ...(typeof file.displayName === 'string' && { filename: file.displayName }),
      ...withGeminiMetadata({ thoughtSignature, partFields }),
    };
  }
  if (isJsonObject(part.functionCall)) {
    const call = camelCaseKeys(part.functionCall);
    const wireId = typeof call.id === 'string' && call.id ? call.id : undefined;
    return {
      type: 'tool-call',
      toolCallId: toolCallId(wireId),
      toolName: typeof call.name === 'string' ? call.name : '',
      input: JSON.stringify(isJsonObject(call.args) ? call.args : {}),
      ...withGeminiMetadata({ functionCallId: wireId, thoughtSignature }),
    };
  }
  const opaqueKey = geminiOpaqueKeyOf(part);
  return opaqueKey === undefined ? undefined : decodeGeminiOpaquePart(part, opaqueKey);
}
