import type { StreamPart } from '../../core/stream-part.js';
import { createEmptyUsage, type Usage } from '../../core/usage.js';
import { sseEvent } from '../../sse/write-sse.js';
import type { ResponseContext, StreamEncoder } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';
import { anthropicExtraFieldsOf } from './block-metadata.js';
import { toAnthropicMessagesUsage } from './convert-usage.js';
import { anthropicErrorType } from './encode-error.js';
import { anthropicMessageId } from './encode-response.js';
import { toAnthropicStopReason } from './map-stop-reason.js';

type BlockPart = Extract<StreamPart, { type: `text-${string}` | `reasoning-${string}` | `tool-${string}` }>;

/** The parts that make up one block: a block is known by its family and the parts' id. */
type Family = 'text' | 'reasoning' | 'tool';

const FAMILY: Record<BlockPart['type'], Family> = {
  'text-start': 'text',
  'text-delta': 'text',
  'text-end': 'text',
  'reasoning-start': 'reasoning',
  'reasoning-delta': 'reasoning',
  'reasoning-end': 'reasoning',
  'tool-input-start': 'tool',
  'tool-input-delta': 'tool',
  'tool-input-end': 'tool',
  'tool-call': 'tool',
};

/** The content block open on the wire. Only text can be closed early: nothing arrives at its end. */
interface OpenBlock {
  family: Family;
  id: string;
  index: number;
  kind: 'text' | 'thinking' | 'redacted_thinking' | 'tool_use';
  inputSent: boolean;
}

/** The `content_block` of a content_block_start. */
type ContentBlock = JsonObject & { type: OpenBlock['kind'] };

const PING = sseEvent('ping', '{"type":"ping"}');

/**
 * Stream parts → Anthropic events (docs/protocols.md §2.5, §7.7), each with `event:` equal to
 * `data.type` (the SDK drops records without it). The SDK's MessageStream appends a block at each
 * content_block_start and addresses deltas by index, so blocks go out one at a time, in index order.
 * Other upstreams interleave (OpenAI text and several tool calls at once): a text block is closed
 * when another block starts (more text later opens a new one), while a thinking or tool_use block
 * stays open until its end (the signature, the rest of the arguments) and the parts of other blocks
 * wait in `deferred` until then.
 *
 * Deltas of the open block are most of a stream: they take the shortest way (`#route` →
 * `#continueBlock`) and their records are written as strings, with no object to serialize.
 */
export function createAnthropicMessagesStreamEncoder(context: ResponseContext): StreamEncoder {
  return new AnthropicMessagesStreamEncoder(context);
}

/** A class, not a factory of closures: it lives as long as its stream, and what runs per event is a method (CONTRIBUTING.md, "Code"). */
class AnthropicMessagesStreamEncoder implements StreamEncoder {
  #context: ResponseContext;
  #started = false;
  #done = false;
  #nextIndex = 0;
  #current: OpenBlock | undefined;
  #deferred: BlockPart[] = [];
  #startUsage: Usage = createEmptyUsage();
  // Thinking and tool blocks cannot reopen once closed; late parts for them are ignored.
  #ended = new Set<string>();

  constructor(context: ResponseContext) {
    this.#context = context;
  }

  encode(part: StreamPart): string {
    // Anthropic has one choice: parts of others (n > 1) have no place.
    if (this.#done || ('choice' in part && part.choice)) return '';
    switch (part.type) {
      case 'start':
        if (part.usage) this.#startUsage = part.usage;
        return this.#messageStart();
      case 'finish':
        return this.#messageEnd(toAnthropicStopReason(part.finishReason), part.finishReason.stopSequence ?? null, part.usage);
      case 'error':
        this.#done = true;
        return event({ type: 'error', error: { type: anthropicErrorType(part.error), message: part.error.message } });
      case 'file':
        // Anthropic messages hold no output files.
        return this.#messageStart();
      default:
        return this.#messageStart() + this.#route(part);
    }
  }

  finish(): string {
    if (this.#done) return '';
    return this.#messageEnd(toAnthropicStopReason({ unified: 'other' }), null, this.#startUsage);
  }

  keepAlive(): string {
    return PING;
  }

  /** A content_block_delta of the open block; `deltaJson` is its `delta`, already JSON. */
  #delta(deltaJson: string): string {
    return sseEvent('content_block_delta', '{"type":"content_block_delta","index":' + this.#current!.index + ',"delta":' + deltaJson + '}');
  }

  #messageStart(): string {
    if (this.#started) return '';
    this.#started = true;
    const message = {
      id: anthropicMessageId(this.#context),
      type: 'message',
      role: 'assistant',
      model: this.#context.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      // Upstreams that count input late (OpenAI, Gemini) give an estimate or nothing here (§7.6).
      usage: toAnthropicMessagesUsage(this.#startUsage),
    };
    return event({ type: 'message_start', message });
  }

  #closeCurrent(): string {
    const current = this.#current;
    if (!current) return '';
    let out = event({ type: 'content_block_stop', index: current.index });
    if (current.kind !== 'text') this.#ended.add(`${current.family}:${current.id}`);
    this.#current = undefined;
    const waiting = this.#deferred;
    this.#deferred = [];
    for (const part of waiting) out += this.#route(part);
    return out;
  }

  /** Closes the open block (text, as route lets nothing else be open here) and starts `block`. */
  #open(family: Family, id: string, block: ContentBlock): string {
    const out = this.#closeCurrent();
    const current: OpenBlock = { family, id, index: this.#nextIndex++, kind: block.type, inputSent: false };
    this.#current = current;
    return out + event({ type: 'content_block_start', index: current.index, content_block: block });
  }

  /** A part of the open block goes out now; others wait while a thinking or tool block is open. */
  #route(part: BlockPart): string {
    const family = FAMILY[part.type];
    const id = part.type === 'tool-call' ? part.toolCallId : part.id;
    const current = this.#current;
    if (current && current.family === family && current.id === id) return this.#continueBlock(part);
    if (this.#deferred.length > 0 || (current && current.kind !== 'text')) {
      this.#deferred.push(part);
      return '';
    }
    if (this.#ended.has(`${family}:${id}`)) return '';
    const block = blockStartedBy(part);
    // Ends and stray input fragments have no open block to go to.
    return block ? this.#open(family, id, block) + this.#continueBlock(part) : '';
  }

  /** What a part writes into its block, which is the open one. */
  #continueBlock(part: BlockPart): string {
    const block = this.#current!;
    switch (part.type) {
      case 'text-delta':
        return this.#delta('{"type":"text_delta","text":' + JSON.stringify(part.delta) + '}');
      case 'reasoning-delta':
        // A redacted block has no deltas.
        return block.kind === 'thinking' ? this.#delta('{"type":"thinking_delta","thinking":' + JSON.stringify(part.delta) + '}') : '';
      case 'tool-input-delta':
        if (!part.delta) return '';
        block.inputSent = true;
        return this.#delta('{"type":"input_json_delta","partial_json":' + JSON.stringify(part.delta) + '}');
      case 'text-end':
        return this.#closeCurrent();
      case 'reasoning-end': {
        // The SDK stores the signature from this delta, sent once just before the block stops.
        const signature =
          part.signature && block.kind === 'thinking' ? this.#delta('{"type":"signature_delta","signature":' + JSON.stringify(part.signature) + '}') : '';
        return signature + this.#closeCurrent();
      }
      case 'tool-call': {
        // A whole call without tool-input parts (Gemini) gets its block and its input at once.
        const input = !block.inputSent && part.input ? this.#delta('{"type":"input_json_delta","partial_json":' + JSON.stringify(part.input) + '}') : '';
        return input + this.#closeCurrent();
      }
      case 'text-start':
      case 'reasoning-start':
      case 'tool-input-start':
        // Already open.
        return '';
      case 'tool-input-end':
        // The complete `tool-call` follows and closes the block.
        return '';
      default: {
        const unexpected: never = part;
        throw new Error(`Unhandled stream part ${JSON.stringify(unexpected)}`);
      }
    }
  }

  /** Closes what is open and lets every waiting part out (a stream cut short leaves blocks open). */
  #drain(): string {
    let out = '';
    while (this.#current || this.#deferred.length > 0) {
      if (this.#current) out += this.#closeCurrent();
      else {
        const waiting = this.#deferred;
        this.#deferred = [];
        for (const part of waiting) out += this.#route(part);
      }
    }
    return out;
  }

  #messageEnd(stopReason: string, stopSequence: string | null, usage: Usage): string {
    this.#done = true;
    return (
      this.#messageStart() +
      this.#drain() +
      // MessageStream reads `usage.output_tokens` unconditionally, and `message_stop` makes its message.
      event({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: stopSequence }, usage: toAnthropicMessagesUsage(usage) }) +
      event({ type: 'message_stop' })
    );
  }
}

/** One record: the event's name is its `type`. */
function event(data: JsonObject & { type: string }): string {
  return sseEvent(data.type, JSON.stringify(data));
}

/** The block a part starts when its block is not open yet (text and thinking start at their first delta). */
function blockStartedBy(part: BlockPart): ContentBlock | undefined {
  switch (part.type) {
    case 'text-start':
    case 'text-delta':
      return { type: 'text', text: '' };
    case 'reasoning-start':
      return part.redactedData !== undefined ? { type: 'redacted_thinking', data: part.redactedData } : { type: 'thinking', thinking: '', signature: '' };
    case 'reasoning-delta':
      return { type: 'thinking', thinking: '', signature: '' };
    case 'tool-input-start':
      return { type: 'tool_use', id: part.id, name: part.toolName, input: {}, ...anthropicExtraFieldsOf(part) };
    case 'tool-call':
      return { type: 'tool_use', id: part.toolCallId, name: part.toolName, input: {}, ...anthropicExtraFieldsOf(part) };
    default:
      return undefined;
  }
}
