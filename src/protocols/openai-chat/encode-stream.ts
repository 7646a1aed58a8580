import type { StreamPart } from '../../core/stream-part.js';
import type { Usage } from '../../core/usage.js';
import { SSE_KEEP_ALIVE_COMMENT, sseData } from '../../sse/write-sse.js';
import type { ResponseContext, StreamEncoder } from '../protocol-codec.js';
import { toOpenAIChatUsage } from './convert-usage.js';
import { encodeOpenAIError } from './encode-error.js';
import { openAIChatCompletionId } from './encode-response.js';
import { toOpenAIChatFinishReason } from './map-finish-reason.js';

interface ChoiceState {
  started: boolean;
  toolIndexes: Map<string, number>;
}

/**
 * Stream parts → `chat.completion.chunk` records (docs/protocols.md §1.5): data-only lines, the role in
 * each choice's first delta, every tool call opened with id, type, name and empty arguments (the
 * SDK's `ChatCompletionStream` demands them), a `finish_reason` per choice, the usage chunk when
 * the client asked for it, then `[DONE]`.
 */
export function createOpenAIChatStreamEncoder(context: ResponseContext): StreamEncoder {
  return new OpenAIChatStreamEncoder(context);
}

/** A class, not a factory of closures: it lives as long as its stream, and what runs per event is a method (CONTRIBUTING.md, "Code"). */
class OpenAIChatStreamEncoder implements StreamEncoder {
  #includeUsage: boolean;
  // Every chunk shares its head and tail (with the SSE framing): written once, not again per chunk.
  #head: string;
  #tail: string;
  #choices = new Map<number, ChoiceState>();
  #usage: Usage | undefined;
  #failed = false;
  #done = false;

  constructor(context: ResponseContext) {
    this.#includeUsage = context.request.extensions['openai-chat']?.include_usage === true;
    const id = openAIChatCompletionId(context);
    this.#head = `data: {"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${context.created},"model":${JSON.stringify(context.model)},"system_fingerprint":null,"choices":`;
    this.#tail = this.#includeUsage ? ',"usage":null}\n\n' : '}\n\n';
  }

  encode(part: StreamPart): string {
    if (this.#done) return '';
    const index = 'choice' in part && part.choice !== undefined ? part.choice : 0;
    switch (part.type) {
      case 'start':
        return this.#open(0);
      case 'text-start':
      case 'text-end':
      case 'reasoning-start':
      case 'reasoning-end':
      case 'tool-input-end':
      case 'tool-call':
      case 'file':
        return this.#open(index);
      case 'text-delta':
        return this.#open(index) + this.#deltaChunk(index, `{"content":${JSON.stringify(part.delta)}}`);
      case 'reasoning-delta':
        return this.#open(index) + this.#deltaChunk(index, `{"reasoning_content":${JSON.stringify(part.delta)}}`);
      case 'tool-input-start': {
        const opening = this.#open(index);
        const call = { index: this.#toolIndex(index, part.id), id: part.id, type: 'function', function: { name: part.toolName, arguments: '' } };
        return opening + this.#deltaChunk(index, JSON.stringify({ tool_calls: [call] }));
      }
      case 'tool-input-delta': {
        const opening = this.#open(index);
        return opening + this.#deltaChunk(index, JSON.stringify({ tool_calls: [{ index: this.#toolIndex(index, part.id), function: { arguments: part.delta } }] }));
      }
      case 'finish': {
        this.#usage = part.usage;
        const opening = this.#open(index);
        return opening + this.#deltaChunk(index, '{}', toOpenAIChatFinishReason(part.finishReason));
      }
      case 'error':
        this.#failed = true;
        this.#done = true;
        // The SDK throws on a data record with a top-level `error` (docs/protocols.md §1.5).
        return sseData(JSON.stringify(encodeOpenAIError(part.error).body));
      default: {
        const unexpected: never = part;
        throw new Error(`Unhandled stream part ${JSON.stringify(unexpected)}`);
      }
    }
  }

  finish(): string {
    if (this.#failed) return '';
    this.#done = true;
    // The usage chunk has no choices, and its usage in place of the tail's null.
    const usageChunk = this.#includeUsage ? `${this.#head}[],"usage":${JSON.stringify(toOpenAIChatUsage(this.#usage ?? { input: {}, output: {} }))}}\n\n` : '';
    return usageChunk + sseData('[DONE]');
  }

  keepAlive(): string {
    return SSE_KEEP_ALIVE_COMMENT;
  }

  /** A chunk of one choice, its delta given as JSON text; `finish_reason` null until its last chunk. */
  #deltaChunk(index: number, delta: string, finishReason: string | null = null): string {
    return `${this.#head}[{"index":${index},"delta":${delta},"logprobs":null,"finish_reason":${finishReason === null ? 'null' : JSON.stringify(finishReason)}}]${this.#tail}`;
  }

  /** The choice's opening chunk (the role, which the SDK wants first), once; '' after that. */
  #open(index: number): string {
    let state = this.#choices.get(index);
    if (!state) {
      state = { started: false, toolIndexes: new Map() };
      this.#choices.set(index, state);
    }
    if (state.started) return '';
    state.started = true;
    return this.#deltaChunk(index, '{"role":"assistant","content":"","refusal":null}');
  }

  #toolIndex(index: number, toolId: string): number {
    const state = this.#choices.get(index)!;
    let position = state.toolIndexes.get(toolId);
    if (position === undefined) {
      position = state.toolIndexes.size;
      state.toolIndexes.set(toolId, position);
    }
    return position;
  }
}
