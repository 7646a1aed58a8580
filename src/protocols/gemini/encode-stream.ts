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

/** An object's fields as JSON with a leading comma (`,"a":1,"b":2`), or '' for none: spliced into a record. */
function fieldsJson(fields: JsonObject | undefined): string {
  const json = fields === undefined ? '{}' : JSON.stringify(fields);
  return json === '{}' ? '' : `,${json.slice(1, -1)}`;
}

/**
 * Stream parts → `data: <GenerateContentResponse>` records for a Gemini client (docs/protocols.md §4.5,
 * §7.7): no `event:` lines (@google/genai drops such records), every record a whole response with
 * `candidates[i].content.role: 'model'` and only the new parts, function calls only once complete
 * (from `tool-call` parts, with the gateway's id to echo), and `finishReason` + `usageMetadata` on
 * the last record (Gemini CLI retries a stream whose last record lacks a finishReason). An error
 * after the stream began is written as bare JSON, which is what @google/genai turns into ApiError.
 */
export function createGeminiStreamEncoder(context: ResponseContext): StreamEncoder {
  return new GeminiStreamEncoder(context);
}

/** A class, not a factory of closures: it lives as long as its stream, and what runs per event is a method (CONTRIBUTING.md, "Code"). */
class GeminiStreamEncoder implements StreamEncoder {
  #context: ResponseContext;
  // Thoughts only go to a client that asked for them, as Gemini does (see encode-part.ts).
  #includeThoughts: boolean;
  /** Text blocks sent as the Gemini part they came from (executableCode, ...): their text is not sent. */
  #partBlocks = new Set<string>();
  #done = false;
  // Every record is written as a string around its parts' JSON (the ends that never change,
  // modelVersion and responseId, once per stream): one record per text delta is the hot path.
  #recordEnd: string;

  constructor(context: ResponseContext) {
    this.#context = context;
    this.#includeThoughts = context.request.reasoning?.includeThoughts === true;
    this.#recordEnd = `,"modelVersion":${JSON.stringify(context.model)},"responseId":${JSON.stringify(context.requestId)}}`;
  }

  encode(part: StreamPart): string {
    if (this.#done) return '';
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
        this.#partBlocks.add(blockKey(part));
        return this.#record(part.choice, [original]);
      }
      case 'text-delta':
        // partBlocks is almost always empty: then no key is built.
        return this.#partBlocks.size > 0 && this.#partBlocks.has(blockKey(part)) ? '' : this.#record(part.choice, [{ text: part.delta }]);
      case 'text-end': {
        if (this.#partBlocks.delete(blockKey(part))) return '';
        // Gemini's own signature of a text block goes out on an empty closing part, as Gemini does.
        const signature = geminiMetadataOf(part).thoughtSignature;
        return typeof signature === 'string' ? this.#record(part.choice, [encodeGeminiTextPart({ type: 'text', text: '', protocolMetadata: part.protocolMetadata })]) : '';
      }
      case 'reasoning-delta':
        return this.#includeThoughts ? this.#record(part.choice, [{ text: part.delta, thought: true }]) : '';
      case 'reasoning-end':
        return this.#includeThoughts && typeof geminiMetadataOf(part).thoughtSignature === 'string' ? this.#record(part.choice, [encodeGeminiReasoningPart('', part)]) : '';
      case 'tool-call':
        return this.#record(part.choice, [encodeGeminiToolCall(part, 'client')]);
      case 'file':
        return this.#record(part.choice, [encodeGeminiFilePart({ type: 'file', mediaType: part.mediaType, data: { type: 'base64', base64: part.base64 } })]);
      case 'finish': {
        const metadata = part.protocolMetadata?.gemini;
        // A usage with no counts (a blocked prompt, a mock upstream) is left out rather than zeroed.
        const usageField = hasUsageCounts(part.usage) ? { usageMetadata: toGeminiUsage(part.usage) } : {};
        // A prompt Gemini blocked goes back as it came: promptFeedback and no candidates.
        if (isJsonObject(metadata?.promptFeedback) && metadata.promptFeedback.blockReason !== undefined) {
          return sseData(JSON.stringify({ promptFeedback: metadata.promptFeedback, ...usageField, modelVersion: this.#context.model, responseId: this.#context.requestId }));
        }
        const candidateExtra = { finishReason: toGeminiFinishReason(part.finishReason), ...geminiCandidateFieldsFor(metadata, part.choice ?? 0) };
        return this.#record(part.choice, [], candidateExtra, usageField);
      }
      case 'error':
        this.#done = true;
        // Not data-framed: @google/genai only detects an error read as bare JSON (docs/protocols.md §4.5).
        return JSON.stringify(encodeGeminiError(part.error).body);
      default: {
        const unexpected: never = part;
        throw new Error(`Unhandled stream part ${JSON.stringify(unexpected)}`);
      }
    }
  }

  finish(): string {
    return '';
  }

  keepAlive(): string {
    return SSE_KEEP_ALIVE_COMMENT;
  }

  #record(choice: number | undefined, parts: JsonObject[], candidateExtra?: JsonObject, responseExtra?: JsonObject): string {
    return sseData(
      `{"candidates":[{"content":{"role":"model","parts":${JSON.stringify(parts)}}${fieldsJson(candidateExtra)},"index":${choice ?? 0}}]${fieldsJson(responseExtra)}${this.#recordEnd}`,
    );
  }
}

function blockKey(part: { id: string; choice?: number }): string {
  return `${part.choice ?? 0}:${part.id}`;
}
