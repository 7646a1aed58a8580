import type { StreamPart } from '../../core/stream-part.js';
import { SSE_KEEP_ALIVE_COMMENT, sseData } from '../../sse/write-sse.js';
import type { ResponseContext, StreamEncoder } from '../protocol-codec.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { geminiCandidateFieldsFor } from './candidate-fields.js';
import { hasUsageCounts, toGeminiUsage } from './convert-usage.js';
import { geminiMetadataOf } from './decode-part.js';
import { encodeGeminiFilePart, encodeGeminiReasoningPart, encodeGeminiTextPart, encodeGeminiToolCall } from './encode-part.js';
import { encodeGeminiError } from './encode-error.js';
import { toGeminiFinishReason } from './map-finish-reason.js';

/** The JSON of every text or thought record, up to the text's value. */
const TEXT_RECORD_START = '{"candidates":[{"content":{"role":"model","parts":[{"text":';

/**
 * Stream parts → `data: <GenerateContentResponse>` records for a Gemini client (PROTOCOLS.md §4.5,
 * §7.7): no `event:` lines (@google/genai drops such records), every record a whole response with
 * `candidates[i].content.role: 'model'` and only the new parts, function calls only once complete
 * (from `tool-call` parts, with the gateway's id to echo), and `finishReason` + `usageMetadata` on
 * the last record (Gemini CLI retries a stream whose last record lacks a finishReason). An error
 * after the stream began is written as bare JSON, which is what @google/genai turns into ApiError.
 */
export function createGeminiStreamEncoder(context: ResponseContext): StreamEncoder {
  // Thoughts only go to a client that asked for them, as Gemini does (see encode-part.ts).
  const includeThoughts = context.request.reasoning?.includeThoughts === true;
  /** Text blocks sent as the Gemini part they came from (executableCode, ...): their text is not sent. */
  const partBlocks = new Set<string>();
  let done = false;

  const record = (choice: number | undefined, parts: JsonObject[], candidateExtra: JsonObject = {}, responseExtra: JsonObject = {}): string =>
    sseData(
      JSON.stringify({
        candidates: [{ content: { role: 'model', parts }, ...candidateExtra, index: choice ?? 0 }],
        ...responseExtra,
        modelVersion: context.model,
        responseId: context.requestId,
      }),
    );
  // The hot path, one record per text or thought delta: the bytes `record` would write, joined from
  // pieces that never change (modelVersion and responseId are stringified once, here) and the delta's JSON.
  const textRecordEnd = `,"modelVersion":${JSON.stringify(context.model)},"responseId":${JSON.stringify(context.requestId)}}`;
  const textRecord = (choice: number | undefined, text: string, thought: boolean): string =>
    sseData(`${TEXT_RECORD_START}${JSON.stringify(text)}${thought ? ',"thought":true' : ''}}]},"index":${choice ?? 0}}]${textRecordEnd}`);
  const blockKey = (part: { id: string; choice?: number }) => `${part.choice ?? 0}:${part.id}`;

  return {
    encode(part: StreamPart): string {
      if (done) return '';
      switch (part.type) {
        case 'start':
        case 'reasoning-start':
        case 'tool-input-start':
        case 'tool-input-delta':
        case 'tool-input-end':
          return '';
        case 'text-start': {
          const original = geminiMetadataOf(part).part;
          if (!isJsonObject(original)) return '';
          partBlocks.add(blockKey(part));
          return record(part.choice, [original]);
        }
        case 'text-delta':
          // partBlocks is almost always empty: then no key is built.
          return partBlocks.size > 0 && partBlocks.has(blockKey(part)) ? '' : textRecord(part.choice, part.delta, false);
        case 'text-end': {
          if (partBlocks.delete(blockKey(part))) return '';
          // Gemini's own signature of a text block goes out on an empty closing part, as Gemini does.
          const signature = geminiMetadataOf(part).thoughtSignature;
          return typeof signature === 'string' ? record(part.choice, [encodeGeminiTextPart({ type: 'text', text: '', protocolMetadata: part.protocolMetadata })]) : '';
        }
        case 'reasoning-delta':
          return includeThoughts ? textRecord(part.choice, part.delta, true) : '';
        case 'reasoning-end':
          return includeThoughts && typeof geminiMetadataOf(part).thoughtSignature === 'string' ? record(part.choice, [encodeGeminiReasoningPart('', part)]) : '';
        case 'tool-call':
          return record(part.choice, [encodeGeminiToolCall(part, 'client')]);
        case 'file':
          return record(part.choice, [encodeGeminiFilePart({ type: 'file', mediaType: part.mediaType, data: { type: 'base64', base64: part.base64 } })]);
        case 'finish': {
          const metadata = part.protocolMetadata?.gemini;
          // A usage with no counts (a blocked prompt, a mock upstream) is left out rather than zeroed.
          const usageField = hasUsageCounts(part.usage) ? { usageMetadata: toGeminiUsage(part.usage) } : {};
          // A prompt Gemini blocked goes back as it came: promptFeedback and no candidates.
          if (isJsonObject(metadata?.promptFeedback) && metadata.promptFeedback.blockReason !== undefined) {
            return sseData(JSON.stringify({ promptFeedback: metadata.promptFeedback, ...usageField, modelVersion: context.model, responseId: context.requestId }));
          }
          const candidateExtra = { finishReason: toGeminiFinishReason(part.finishReason), ...geminiCandidateFieldsFor(metadata, part.choice ?? 0) };
          return record(part.choice, [], candidateExtra, usageField);
        }
        case 'error':
          done = true;
          // Not data-framed: @google/genai only detects an error read as bare JSON (PROTOCOLS.md §4.5).
          return JSON.stringify(encodeGeminiError(part.error).body);
        default: {
          const unexpected: never = part;
          throw new Error(`Unhandled stream part ${JSON.stringify(unexpected)}`);
        }
      }
    },
    finish: () => '',
    keepAlive: () => SSE_KEEP_ALIVE_COMMENT,
  };
}
