import type { AssistantPart, FilePart, TextPart } from '../../core/content-part.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { parseToolInputObject } from '../parse-tool-input.js';
import { geminiMetadataOf } from './decode-part.js';

/**
 * Core parts → Gemini parts, for the response encoders (a Gemini client) and the request encoder
 * (a Gemini upstream). The two differ on tool calls: a client gets every call with the gateway's
 * id to echo; an upstream only gets ids that Gemini itself issued.
 */
export type GeminiPartTarget = 'client' | 'upstream';

export function encodeGeminiTextPart(part: TextPart): JsonObject {
  const metadata = geminiMetadataOf(part);
  // A part the core has no type for (executableCode, ...) goes back exactly as Gemini sent it.
  if (isJsonObject(metadata.part)) return metadata.part;
  return {
    text: part.text,
    ...(typeof metadata.thoughtSignature === 'string' && { thoughtSignature: metadata.thoughtSignature }),
    ...(isJsonObject(metadata.partFields) && metadata.partFields),
  };
}

export function encodeGeminiFilePart(part: FilePart): JsonObject {
  const metadata = geminiMetadataOf(part);
  const data: JsonObject =
    part.data.type === 'base64'
      ? { inlineData: { mimeType: part.mediaType, data: part.data.base64 } }
      : // `image/*` (a URL whose type the client did not say) is not a MIME type Gemini accepts.
        { fileData: part.mediaType.includes('*') ? { fileUri: part.data.url } : { mimeType: part.mediaType, fileUri: part.data.url } };
  if (typeof metadata.thoughtSignature === 'string') data.thoughtSignature = metadata.thoughtSignature;
  return isJsonObject(metadata.partFields) ? Object.assign(data, metadata.partFields) : data;
}

/**
 * A tool call as a `functionCall` part. `fallbackSignature` is used when the call has no
 * signature of its own (see encode-contents.ts).
 */
export function encodeGeminiToolCall(
  call: { toolCallId: string; toolName: string; input: string; protocolMetadata?: AssistantPart['protocolMetadata'] },
  target: GeminiPartTarget,
  fallbackSignature?: string,
): JsonObject {
  const metadata = geminiMetadataOf(call);
  const id = target === 'client' ? call.toolCallId : typeof metadata.functionCallId === 'string' ? metadata.functionCallId : undefined;
  const thoughtSignature = typeof metadata.thoughtSignature === 'string' ? metadata.thoughtSignature : fallbackSignature;
  const name = call.toolName;
  const args = parseToolInputObject(call.input);
  return {
    functionCall: id !== undefined ? { id, name, args } : { name, args },
    ...(thoughtSignature !== undefined && { thoughtSignature }),
  };
}

/** Reasoning as a thought part; only Gemini's own signature is sent (signatures are vendor-bound). */
export function encodeGeminiReasoningPart(text: string, metadataSource: { protocolMetadata?: AssistantPart['protocolMetadata'] }): JsonObject {
  const metadata = geminiMetadataOf(metadataSource);
  return {
    text,
    thought: true,
    ...(typeof metadata.thoughtSignature === 'string' && { thoughtSignature: metadata.thoughtSignature }),
  };
}

/**
 * One assistant part for a Gemini client (non-stream response); undefined when there is nothing to
 * send. Thoughts only go to a client that asked for them (`includeThoughts`), as Gemini does:
 * REST code often reads `parts[0].text` as the answer.
 */
export function encodeGeminiClientPart(part: AssistantPart, includeThoughts: boolean): JsonObject | undefined {
  switch (part.type) {
    case 'text':
      return encodeGeminiTextPart(part);
    case 'reasoning':
      // Redacted reasoning (Anthropic) has no text a Gemini client could show.
      if (!includeThoughts || part.redactedData !== undefined || (part.text === '' && geminiMetadataOf(part).thoughtSignature === undefined)) return undefined;
      return encodeGeminiReasoningPart(part.text, part);
    case 'tool-call':
      return encodeGeminiToolCall(part, 'client');
    case 'file':
      return encodeGeminiFilePart(part);
    default: {
      const unexpected: never = part;
      throw new Error(`Unhandled content part ${JSON.stringify(unexpected)}`);
    }
  }
}
