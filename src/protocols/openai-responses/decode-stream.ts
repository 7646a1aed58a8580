import { expandResponseToStreamParts } from '../../core/expand-response.js';
import type { StreamPart } from '../../core/stream-part.js';
import type { SseEvent } from '../../sse/sse-event.js';
import type { StreamDecoder } from '../protocol-codec.js';
import { parseEventData } from '../parse-event-data.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { convertOpenAIResponsesUsage } from './convert-usage.js';
import { decodeOpenAIResponsesErrorEvent, decodeOpenAIResponsesFailure } from './decode-error.js';
import { contentText, decodeOpenAIResponsesOutputItem } from './decode-response.js';
import { mapOpenAIResponsesStatus } from './map-finish-reason.js';
import { createStreamItemReader } from './read-stream-items.js';
import { invalidStreamEvent, streamEndedEarly } from '../../core/stream-ended-early.js';

const TERMINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);

/**
 * The Responses stream's completion rule: it is complete at `response.completed`,
 * `response.incomplete` or `response.failed`; an `error` event ends it too. Read on the raw event,
 * for a passthrough stream's last events; the decoder below follows it.
 */
export function endsOpenAIResponsesStream(event: SseEvent): boolean {
  if (event.unframed) return false;
  if (event.event !== undefined && TERMINAL_EVENTS.has(event.event)) return true;
  const payload = parseEventData(event.data);
  if (payload === undefined) return false;
  return isJsonObject(payload) && typeof payload.type === 'string' && TERMINAL_EVENTS.has(payload.type);
}

/**
 * Responses events → stream parts (docs/protocols.md §3.4). Text, arguments and reasoning that arrive in
 * a `.done` event beyond what the deltas carried are passed on as one more delta. Events that carry
 * no content of their own are skipped on purpose: keepalive, the `.done` echoes of the deltas, the
 * progress of built-in tools (web_search_call.*, image_generation_call.*, file_search_call.*,
 * code_interpreter_call.*, mcp_*), annotations, and any event type added later.
 */
export function createOpenAIResponsesStreamDecoder(): StreamDecoder {
  return new OpenAIResponsesStreamDecoder();
}

/** A class, not a factory of closures: it lives as long as its stream, and what runs per event is a method (CONTRIBUTING.md, "Code"). */
class OpenAIResponsesStreamDecoder implements StreamDecoder {
  #items = createStreamItemReader();
  #started = false;
  #finished = false;
  #sawItems = false;

  decode(event: SseEvent): StreamPart[] {
    if (this.#finished || event.unframed) return [];
    const payload = parseEventData(event.data);
    if (payload === undefined) {
      this.#finished = true;
      return [{ type: 'error', error: invalidStreamEvent() }];
    }
    if (!isJsonObject(payload)) return [];
    const type = typeof payload.type === 'string' ? payload.type : event.event;
    if (type === 'error') {
      // A `response.failed` follows; the error event already said it all.
      this.#finished = true;
      return [{ type: 'error', error: decodeOpenAIResponsesErrorEvent(payload) }];
    }
    const index = typeof payload.output_index === 'number' ? payload.output_index : 0;
    const contentIndex = typeof payload.content_index === 'number' ? payload.content_index : 0;
    const delta = typeof payload.delta === 'string' ? payload.delta : '';
    const parts: StreamPart[] = [];
    if (type?.startsWith('response.')) this.#startOnce(parts, payload.response);
    const items = this.#items;
    switch (type) {
      case 'response.output_item.added':
      case 'response.output_item.done':
        if (!isJsonObject(payload.item)) return parts;
        this.#sawItems = true;
        if (type === 'response.output_item.added') items.added(index, payload.item, parts);
        else items.done(index, payload.item, parts);
        return parts;
      case 'response.content_part.added':
        if (isJsonObject(payload.part) && contentText(payload.part) !== undefined) items.openText(index, contentIndex, parts);
        return parts;
      case 'response.content_part.done': {
        const whole = isJsonObject(payload.part) ? contentText(payload.part) : undefined;
        if (whole !== undefined) items.closeText(index, contentIndex, whole, parts);
        return parts;
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (delta) items.textDelta(index, contentIndex, delta, parts);
        return parts;
      case 'response.function_call_arguments.delta':
        if (delta) items.argumentsDelta(index, delta, parts);
        return parts;
      case 'response.reasoning_summary_part.added':
        if (typeof payload.summary_index === 'number') items.summaryPartAdded(index, payload.summary_index, parts);
        return parts;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        if (delta) items.reasoningDelta(index, delta, parts);
        return parts;
      case 'response.completed':
      case 'response.incomplete':
        this.#finished = true;
        this.#complete(isJsonObject(payload.response) ? payload.response : {}, parts);
        return parts;
      case 'response.failed':
        this.#finished = true;
        parts.push({ type: 'error', error: decodeOpenAIResponsesFailure(isJsonObject(payload.response) ? payload.response : {}) });
        return parts;
      default:
        return parts;
    }
  }

  end(): StreamPart[] {
    if (this.#finished) return [];
    this.#finished = true;
    return [{ type: 'error', error: streamEndedEarly('response.completed') }];
  }

  #startOnce(parts: StreamPart[], response: unknown): void {
    if (this.#started) return;
    this.#started = true;
    const fields: JsonObject = isJsonObject(response) ? response : {};
    parts.push({ type: 'start', ...(typeof fields.id === 'string' && { id: fields.id }), ...(typeof fields.model === 'string' && { model: fields.model }) });
  }

  /** A terminal event: close what is still open, then the finish with the final usage. */
  #complete(response: JsonObject, parts: StreamPart[]): void {
    this.#items.closeAll(parts);
    const output = Array.isArray(response.output) ? response.output.filter(isJsonObject) : [];
    if (!this.#sawItems && output.length > 0) {
      // A server that sent no item events: the terminal response still has the whole output.
      const content = output.flatMap(decodeOpenAIResponsesOutputItem);
      const expanded = expandResponseToStreamParts({ choices: [{ index: 0, content, finishReason: { unified: 'other' } }], usage: { input: {}, output: {} } });
      for (const part of expanded) if (part.type !== 'start' && part.type !== 'finish') parts.push(part);
    }
    const withToolCalls = this.#items.hasToolCalls() || hasFunctionCall(output);
    parts.push({
      type: 'finish',
      finishReason: mapOpenAIResponsesStatus(response.status, response.incomplete_details, withToolCalls),
      usage: convertOpenAIResponsesUsage(response.usage),
    });
  }
}

function hasFunctionCall(output: JsonObject[]): boolean {
  for (const item of output) if (item.type === 'function_call') return true;
  return false;
}
