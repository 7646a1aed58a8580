import { GatewayError } from '../../core/gateway-error.js';
import type { StreamPart } from '../../core/stream-part.js';
import type { Usage } from '../../core/usage.js';
import type { SseEvent } from '../../sse/sse-event.js';
import type { StreamDecoder } from '../protocol-codec.js';
import { parseEventData } from '../parse-event-data.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { buildGeminiResponseMetadata } from './candidate-fields.js';
import { convertGeminiUsage } from './convert-usage.js';
import { decodeGeminiError } from './decode-error.js';
import { closeGeminiCandidate, createGeminiCandidateState, decodeGeminiCandidateChunk, type GeminiCandidateState } from './decode-stream-candidate.js';
import { mapGeminiBlockReason, mapGeminiFinishReason } from './map-finish-reason.js';
import { invalidStreamEvent, streamEndedEarly } from '../../core/stream-ended-early.js';

/**
 * The Gemini stream's completion rule: it is complete at a record with a candidate's
 * `finishReason` (or a prompt's `blockReason`); an error ends it too, framed or bare JSON. Read on
 * the raw event, for a passthrough stream's last events; the decoder below follows it.
 */
export function endsGeminiStream(event: SseEvent): boolean {
  const parsed = parseEventData(event.data);
  if (parsed === undefined) return false;
  const chunk: unknown = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!isJsonObject(chunk)) return false;
  if (isJsonObject(chunk.error)) return true;
  if (isJsonObject(chunk.promptFeedback) && chunk.promptFeedback.blockReason !== undefined) return true;
  if (event.unframed) return false;
  return Array.isArray(chunk.candidates) && chunk.candidates.some((candidate) => isJsonObject(candidate) && candidate.finishReason !== undefined && candidate.finishReason !== null);
}

/** Bare JSON longer than this is not an error body: it is dropped rather than buffered forever. */
const MAX_UNFRAMED_LENGTH = 64 * 1024;

/**
 * Gemini `alt=sse` records → stream parts (docs/protocols.md §4.5). Each record is a whole
 * GenerateContentResponse holding only the new parts. Usage comes on (nearly) every record and the
 * last one counts. The finish is emitted once every candidate has a `finishReason` (Gemini sends
 * nothing after that record), or at the end of the stream. Records after it are skipped on purpose.
 * A mid-stream error is bare JSON outside SSE framing, possibly over several lines: the parser
 * hands those lines over as `unframed` and they are put back together here.
 */
export function createGeminiStreamDecoder(): StreamDecoder {
  return new GeminiStreamDecoder();
}

/** A class, not a factory of closures: it lives as long as its stream, and what runs per event is a method (CONTRIBUTING.md, "Code"). */
class GeminiStreamDecoder implements StreamDecoder {
  #candidates = new Map<number, GeminiCandidateState>();
  #started = false;
  #finished = false;
  #responseId: string | undefined;
  // Usage comes on every record and only the last counts: kept raw, converted once at the end.
  #rawUsage: unknown;
  #promptFeedback: unknown;
  #unframed = '';

  decode(event: SseEvent): StreamPart[] {
    if (event.unframed) return this.#decodeUnframed(event.data);
    if (this.#finished) return [];
    const chunk = parseEventData(event.data);
    if (chunk === undefined) {
      this.#finished = true;
      return [{ type: 'error', error: invalidStreamEvent() }];
    }
    if (!isJsonObject(chunk)) return [];
    if (isJsonObject(chunk.error)) {
      this.#finished = true;
      return [{ type: 'error', error: toStreamError(chunk.error, event.data) }];
    }
    const parts: StreamPart[] = [];
    if (!this.#started) {
      this.#started = true;
      const responseId = typeof chunk.responseId === 'string' ? chunk.responseId : undefined;
      this.#responseId = responseId;
      parts.push({ type: 'start', ...(responseId !== undefined && { id: responseId }), ...(typeof chunk.modelVersion === 'string' && { model: chunk.modelVersion }) });
    }
    if (chunk.usageMetadata !== undefined) this.#rawUsage = chunk.usageMetadata;
    if (chunk.promptFeedback !== undefined) this.#promptFeedback = chunk.promptFeedback;
    // A plain loop: this runs for every record, and a callback per record is a closure per record.
    const rawCandidates: unknown[] = Array.isArray(chunk.candidates) ? chunk.candidates : [];
    const candidates = this.#candidates;
    let position = 0;
    let finishedOne = false;
    for (const candidate of rawCandidates) {
      if (!isJsonObject(candidate)) continue;
      const index = typeof candidate.index === 'number' ? candidate.index : position;
      position += 1;
      let state = candidates.get(index);
      if (!state) {
        state = createGeminiCandidateState(index, this.#responseId);
        candidates.set(index, state);
      }
      decodeGeminiCandidateChunk(state, candidate, parts);
      if (state.finishReason !== undefined) finishedOne = true;
    }
    const promptFeedback = this.#promptFeedback;
    const blocked = candidates.size === 0 && isJsonObject(promptFeedback) && promptFeedback.blockReason !== undefined;
    // Every candidate can only have finished once this record finished one of them.
    if (blocked || (finishedOne && everyCandidateFinished(candidates))) parts.push(...this.#finish());
    return parts;
  }

  end(): StreamPart[] {
    const parts: StreamPart[] = [];
    if (this.#unframed.trim() && !this.#finished) {
      this.#finished = true;
      parts.push({
        type: 'error',
        error: new GatewayError('upstream_error', 'The upstream stream ended with data that is not a Gemini response.', {
          status: 502,
          upstream: { status: 200, body: this.#unframed },
        }),
      });
    }
    this.#unframed = '';
    if (this.#finished) return parts;
    // No candidate finished (no finishReason, no blockReason): the stream was cut.
    this.#finished = true;
    return [{ type: 'error', error: streamEndedEarly('a candidate with its finishReason') }];
  }

  #finish(): StreamPart[] {
    if (this.#finished || !this.#started) return [];
    this.#finished = true;
    const usage: Usage | undefined = this.#rawUsage === undefined ? undefined : convertGeminiUsage(this.#rawUsage);
    const parts: StreamPart[] = [];
    const states = [...this.#candidates.values()].sort(byIndex);
    const fields = new Map<number, JsonObject>();
    for (const state of states) fields.set(state.index, state.fields);
    const promptFeedback = this.#promptFeedback;
    const metadata = buildGeminiResponseMetadata(fields, promptFeedback);
    const protocolMetadata = metadata && { protocolMetadata: { gemini: metadata } };
    const blockReason = isJsonObject(promptFeedback) ? promptFeedback.blockReason : undefined;
    if (states.length === 0) {
      const finishReason = typeof blockReason === 'string' ? mapGeminiBlockReason(blockReason) : { unified: 'other' as const };
      return [{ type: 'finish', finishReason, usage: usage ?? { input: {}, output: {} }, ...protocolMetadata }];
    }
    for (let position = 0; position < states.length; position++) {
      const state = states[position]!;
      closeGeminiCandidate(state, parts);
      const last = position === states.length - 1;
      parts.push({
        type: 'finish',
        finishReason: mapGeminiFinishReason(state.finishReason, state.hasToolCalls),
        usage: last && usage ? usage : { input: {}, output: {} },
        ...state.tag,
        ...(last && protocolMetadata),
      });
    }
    return parts;
  }

  #decodeUnframed(line: string): StreamPart[] {
    const unframed = this.#unframed ? `${this.#unframed}\n${line}` : line;
    this.#unframed = unframed;
    const parsed = parseEventData(unframed);
    if (parsed === undefined) {
      if (unframed.length > MAX_UNFRAMED_LENGTH) this.#unframed = '';
      return [];
    }
    this.#unframed = '';
    // Without `alt=sse` Google answers with a JSON array; an error then comes as `[{error}]`.
    const body = Array.isArray(parsed) ? parsed[0] : parsed;
    if (this.#finished || !isJsonObject(body) || !isJsonObject(body.error)) return [];
    this.#finished = true;
    return [{ type: 'error', error: toStreamError(body.error, unframed) }];
  }
}

function byIndex(left: GeminiCandidateState, right: GeminiCandidateState): number {
  return left.index - right.index;
}

/** `{code, message, status}` written mid-stream → GatewayError; a 4xx there is still the upstream's fault. */
function toStreamError(error: JsonObject, text: string): GatewayError {
  const code = typeof error.code === 'number' && error.code >= 400 && error.code < 600 ? error.code : 500;
  const decoded = decodeGeminiError(code, text);
  if (decoded.code !== 'invalid_request') return decoded;
  return new GatewayError('upstream_error', decoded.message, { status: 502, upstream: decoded.upstream, detailCode: decoded.detailCode });
}

function everyCandidateFinished(candidates: Map<number, GeminiCandidateState>): boolean {
  for (const state of candidates.values()) if (state.finishReason === undefined) return false;
  return true;
}
