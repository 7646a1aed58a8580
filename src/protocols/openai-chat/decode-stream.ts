import { DeltaText } from '../../core/delta-text.js';
import type { FinishReason } from '../../core/finish-reason.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { StreamPart } from '../../core/stream-part.js';
import type { Usage } from '../../core/usage.js';
import type { SseEvent } from '../../sse/sse-event.js';
import type { StreamDecoder } from '../protocol-codec.js';
import { parseEventData } from '../parse-event-data.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { convertOpenAIChatUsage } from './convert-usage.js';
import { decodeOpenAIError } from './decode-error.js';
import { mapOpenAIChatFinishReason } from './map-finish-reason.js';
import { invalidStreamEvent, streamEndedEarly } from '../../core/stream-ended-early.js';

/**
 * The Chat stream's completion rule: it is complete once a choice has a `finish_reason` (the
 * `[DONE]` after it is tolerated missing) or at `[DONE]`; an error chunk ends it too. Read on the
 * raw event, for a passthrough stream's last events; the decoder below follows the same rule.
 */
export function endsOpenAIChatStream(event: SseEvent): boolean {
  if (event.unframed) return false;
  if (event.data === '[DONE]') return true;
  const chunk = parseEventData(event.data);
  if (chunk === undefined) return false;
  if (!isJsonObject(chunk)) return false;
  if (chunk.error !== undefined || event.event === 'error') return true;
  return Array.isArray(chunk.choices) && chunk.choices.some((choice) => isJsonObject(choice) && typeof choice.finish_reason === 'string');
}

interface OpenTool {
  id: string;
  name: string;
  /** The arguments so far, for the whole call at the end (DeltaText: kept as long as the stream). */
  input: DeltaText;
}

interface ChoiceState {
  /** `{choice}` for the parts of choices other than the first. */
  tag: { choice?: number };
  /** The ids of the choice's text and reasoning parts, made once (not per event). */
  textId: string;
  reasoningId: string;
  textOpen: boolean;
  reasoningOpen: boolean;
  tools: Map<number, OpenTool>;
  finishReason?: FinishReason;
}

/**
 * OpenAI Chat chunks → stream parts. The finish is held back until the stream ends (`[DONE]` or
 * EOF), because usage arrives in a chunk after the one with `finish_reason`. A stream that ends
 * before every choice has its `finish_reason` (and without `[DONE]`), or with a chunk that is not
 * JSON, ends with an error part instead (`endsOpenAIChatStream`).
 */
export function createOpenAIChatStreamDecoder(): StreamDecoder {
  return new OpenAIChatStreamDecoder();
}

/** A class, not a factory of closures: it lives as long as its stream, and what runs per event is a method (CONTRIBUTING.md, "Code"). */
class OpenAIChatStreamDecoder implements StreamDecoder {
  #choices = new Map<number, ChoiceState>();
  #started = false;
  #finished = false;
  #usage: Usage | undefined;

  decode(event: SseEvent): StreamPart[] {
    if (event.unframed || this.#finished) return [];
    if (event.data === '[DONE]') return this.#finish();
    const chunk = parseEventData(event.data);
    if (chunk === undefined) {
      this.#finished = true;
      return [{ type: 'error', error: invalidStreamEvent() }];
    }
    if (!isJsonObject(chunk)) return [];
    if (chunk.error !== undefined || event.event === 'error') {
      this.#finished = true;
      const error = decodeOpenAIError(500, event.data);
      return [{ type: 'error', error: new GatewayError(error.code === 'invalid_request' ? 'upstream_error' : error.code, error.message, { status: 502, upstream: error.upstream }) }];
    }
    const parts: StreamPart[] = [];
    if (!this.#started) {
      this.#started = true;
      parts.push({
        type: 'start',
        ...(typeof chunk.id === 'string' && { id: chunk.id }),
        ...(typeof chunk.model === 'string' && { model: chunk.model }),
      });
    }
    if (isJsonObject(chunk.usage)) this.#usage = convertOpenAIChatUsage(chunk.usage);
    if (!Array.isArray(chunk.choices)) return parts;
    for (const rawChoice of chunk.choices) {
      if (!isJsonObject(rawChoice)) continue;
      const index = typeof rawChoice.index === 'number' ? rawChoice.index : 0;
      const state = this.#stateOf(index);
      const { tag } = state;
      const delta: JsonObject = isJsonObject(rawChoice.delta) ? rawChoice.delta : {};
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (typeof reasoning === 'string' && reasoning) {
        if (!state.reasoningOpen) {
          state.reasoningOpen = true;
          parts.push({ type: 'reasoning-start', id: state.reasoningId, ...tag });
        }
        parts.push({ type: 'reasoning-delta', id: state.reasoningId, delta: reasoning, ...tag });
      }
      const text = typeof delta.content === 'string' && delta.content ? delta.content : typeof delta.refusal === 'string' ? delta.refusal : '';
      if (text) {
        if (state.reasoningOpen) {
          state.reasoningOpen = false;
          parts.push({ type: 'reasoning-end', id: state.reasoningId, ...tag });
        }
        if (!state.textOpen) {
          state.textOpen = true;
          parts.push({ type: 'text-start', id: state.textId, ...tag });
        }
        parts.push({ type: 'text-delta', id: state.textId, delta: text, ...tag });
      }
      if (Array.isArray(delta.tool_calls)) {
        for (const rawCall of delta.tool_calls) {
          if (!isJsonObject(rawCall)) continue;
          const callIndex = typeof rawCall.index === 'number' ? rawCall.index : 0;
          const fn: JsonObject = isJsonObject(rawCall.function) ? rawCall.function : {};
          let tool = state.tools.get(callIndex);
          if (!tool) {
            const id = typeof rawCall.id === 'string' && rawCall.id ? rawCall.id : `call_${index}_${callIndex}`;
            tool = { id, name: typeof fn.name === 'string' ? fn.name : '', input: new DeltaText() };
            state.tools.set(callIndex, tool);
            parts.push({ type: 'tool-input-start', id: tool.id, toolName: tool.name, ...tag });
          }
          if (typeof fn.arguments === 'string' && fn.arguments) {
            tool.input.append(fn.arguments);
            parts.push({ type: 'tool-input-delta', id: tool.id, delta: fn.arguments, ...tag });
          }
        }
      }
      if (typeof rawChoice.finish_reason === 'string') {
        state.finishReason = mapOpenAIChatFinishReason(rawChoice.finish_reason);
        closeOpen(state, parts);
      }
    }
    return parts;
  }

  end(): StreamPart[] {
    if (this.#finished) return [];
    if (this.#isComplete()) return this.#finish();
    this.#finished = true;
    return [{ type: 'error', error: streamEndedEarly('a choice with its finish_reason') }];
  }

  /** Whether the stream has started and every choice of it has its `finish_reason`. */
  #isComplete(): boolean {
    if (!this.#started || this.#choices.size === 0) return false;
    for (const state of this.#choices.values()) {
      if (state.finishReason === undefined) return false;
    }
    return true;
  }

  #stateOf(index: number): ChoiceState {
    let state = this.#choices.get(index);
    if (!state) {
      state = { tag: index === 0 ? {} : { choice: index }, textId: `text-${index}`, reasoningId: `reasoning-${index}`, textOpen: false, reasoningOpen: false, tools: new Map() };
      this.#choices.set(index, state);
    }
    return state;
  }

  #finish(): StreamPart[] {
    if (this.#finished || !this.#started) return [];
    this.#finished = true;
    const parts: StreamPart[] = [];
    const indexes = [...this.#choices.keys()].sort((a, b) => a - b);
    if (indexes.length === 0) indexes.push(0);
    for (let position = 0; position < indexes.length; position++) {
      const index = indexes[position];
      const state = this.#stateOf(index);
      closeOpen(state, parts);
      const last = position === indexes.length - 1;
      parts.push({
        type: 'finish',
        finishReason: state.finishReason ?? { unified: 'other' },
        usage: last && this.#usage ? this.#usage : { input: {}, output: {} },
        ...(index === 0 ? {} : { choice: index }),
      });
    }
    return parts;
  }
}

/** Ends the choice's open reasoning, text and tool calls (a tool call with its whole input), into `parts`. */
function closeOpen(state: ChoiceState, parts: StreamPart[]): void {
  const { tag } = state;
  if (state.reasoningOpen) {
    parts.push({ type: 'reasoning-end', id: state.reasoningId, ...tag });
    state.reasoningOpen = false;
  }
  if (state.textOpen) {
    parts.push({ type: 'text-end', id: state.textId, ...tag });
    state.textOpen = false;
  }
  for (const tool of state.tools.values()) {
    parts.push({ type: 'tool-input-end', id: tool.id, ...tag });
    parts.push({ type: 'tool-call', toolCallId: tool.id, toolName: tool.name, input: tool.input.toString(), ...tag });
  }
  state.tools.clear();
}
