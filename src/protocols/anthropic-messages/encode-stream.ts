import type { StreamPart } from '../../core/stream-part.js';
import { createEmptyUsage, type Usage } from '../../core/usage.js';
import type { OutboundChunk } from '../../sse/sse-event.js';
import type { ResponseContext, StreamEncoder } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';
import { anthropicExtraFieldsOf } from './block-metadata.js';
import { toAnthropicMessagesUsage } from './convert-usage.js';
import { anthropicErrorType } from './encode-error.js';
import { anthropicMessageId } from './encode-response.js';
import { toAnthropicStopReason } from './map-stop-reason.js';

type BlockPart = Extract<StreamPart, { type: `text-${string}` | `reasoning-${string}` | `tool-${string}` }>;

/** The content block open on the wire. Only text can be closed early: nothing arrives at its end. */
interface OpenBlock {
  key: string;
  index: number;
  kind: 'text' | 'thinking' | 'redacted_thinking' | 'tool_use';
  inputSent: boolean;
}

/**
 * Stream parts → Anthropic events (PROTOCOLS.md §2.5, §7.7), each with `event:` equal to
 * `data.type` (the SDK drops records without it). The SDK's MessageStream appends a block at each
 * content_block_start and addresses deltas by index, so blocks go out one at a time, in index order.
 * Other upstreams interleave (OpenAI text and several tool calls at once): a text block is closed
 * when another block starts (more text later opens a new one), while a thinking or tool_use block
 * stays open until its end (the signature, the rest of the arguments) and the parts of other blocks
 * wait in `deferred` until then.
 */
export function createAnthropicMessagesStreamEncoder(context: ResponseContext): StreamEncoder {
  let started = false;
  let done = false;
  let nextIndex = 0;
  let current: OpenBlock | undefined;
  let deferred: BlockPart[] = [];
  let startUsage: Usage = createEmptyUsage();
  // Thinking and tool blocks cannot reopen once closed; late parts for them are ignored.
  const ended = new Set<string>();

  const event = (data: JsonObject & { type: string }): OutboundChunk => ({ event: data.type, data: JSON.stringify(data) });

  const messageStart = (): OutboundChunk[] => {
    if (started) return [];
    started = true;
    const message = {
      id: anthropicMessageId(context),
      type: 'message',
      role: 'assistant',
      model: context.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      // Upstreams that count input late (OpenAI, Gemini) give an estimate or nothing here (§7.6).
      usage: toAnthropicMessagesUsage(startUsage),
    };
    return [event({ type: 'message_start', message })];
  };

  const delta = (value: JsonObject): OutboundChunk => event({ type: 'content_block_delta', index: current!.index, delta: value });

  const closeCurrent = (): OutboundChunk[] => {
    if (!current) return [];
    const out = [event({ type: 'content_block_stop', index: current.index })];
    if (current.kind !== 'text') ended.add(current.key);
    current = undefined;
    const waiting = deferred;
    deferred = [];
    for (const part of waiting) out.push(...route(part));
    return out;
  };

  const open = (key: string, kind: OpenBlock['kind'], block: JsonObject): OutboundChunk[] => {
    if (current?.key === key) return [];
    const out = closeCurrent();
    current = { key, index: nextIndex++, kind, inputSent: false };
    out.push(event({ type: 'content_block_start', index: current.index, content_block: { type: kind, ...block } }));
    return out;
  };

  /** A part of the open block goes out now; others wait while a thinking or tool block is open. */
  const route = (part: BlockPart): OutboundChunk[] => {
    const key = keyOf(part);
    if (current?.key !== key && (deferred.length > 0 || (current && current.kind !== 'text'))) {
      deferred.push(part);
      return [];
    }
    if (ended.has(key)) return [];
    return apply(part, key);
  };

  const apply = (part: BlockPart, key: string): OutboundChunk[] => {
    switch (part.type) {
      case 'text-start':
        return open(key, 'text', { text: '' });
      case 'text-delta':
        return [...open(key, 'text', { text: '' }), delta({ type: 'text_delta', text: part.delta })];
      case 'text-end':
        return current?.key === key ? closeCurrent() : [];
      case 'reasoning-start':
        return part.redactedData !== undefined
          ? open(key, 'redacted_thinking', { data: part.redactedData })
          : open(key, 'thinking', { thinking: '', signature: '' });
      case 'reasoning-delta': {
        const out = open(key, 'thinking', { thinking: '', signature: '' });
        if (current?.kind === 'thinking') out.push(delta({ type: 'thinking_delta', thinking: part.delta }));
        return out;
      }
      case 'reasoning-end': {
        if (current?.key !== key) return [];
        // The SDK stores the signature from this delta, sent once just before the block stops.
        const out = part.signature && current.kind === 'thinking' ? [delta({ type: 'signature_delta', signature: part.signature })] : [];
        return [...out, ...closeCurrent()];
      }
      case 'tool-input-start':
        return open(key, 'tool_use', { id: part.id, name: part.toolName, input: {}, ...anthropicExtraFieldsOf(part) });
      case 'tool-input-delta':
        // Decoders always start a tool's input first; a stray fragment has no block to go to.
        if (current?.key !== key || !part.delta) return [];
        current.inputSent = true;
        return [delta({ type: 'input_json_delta', partial_json: part.delta })];
      case 'tool-input-end':
        // The complete `tool-call` follows and closes the block.
        return [];
      case 'tool-call': {
        // A whole call without tool-input parts (Gemini) gets its block and its input at once.
        const out = open(key, 'tool_use', { id: part.toolCallId, name: part.toolName, input: {}, ...anthropicExtraFieldsOf(part) });
        if (!current!.inputSent && part.input) out.push(delta({ type: 'input_json_delta', partial_json: part.input }));
        return [...out, ...closeCurrent()];
      }
      default: {
        const unexpected: never = part;
        throw new Error(`Unhandled stream part ${JSON.stringify(unexpected)}`);
      }
    }
  };

  /** Closes what is open and lets every waiting part out (a stream cut short leaves blocks open). */
  const drain = (): OutboundChunk[] => {
    const out: OutboundChunk[] = [];
    while (current || deferred.length > 0) {
      if (current) out.push(...closeCurrent());
      else {
        const waiting = deferred;
        deferred = [];
        for (const part of waiting) out.push(...route(part));
      }
    }
    return out;
  };

  const messageEnd = (stopReason: string, stopSequence: string | null, usage: Usage): OutboundChunk[] => {
    done = true;
    return [
      ...messageStart(),
      ...drain(),
      // MessageStream reads `usage.output_tokens` unconditionally, and `message_stop` makes its message.
      event({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: stopSequence }, usage: toAnthropicMessagesUsage(usage) }),
      event({ type: 'message_stop' }),
    ];
  };

  return {
    encode(part: StreamPart): OutboundChunk[] {
      // Anthropic has one choice: parts of others (n > 1) have no place.
      if (done || ('choice' in part && part.choice)) return [];
      switch (part.type) {
        case 'start':
          if (part.usage) startUsage = part.usage;
          return messageStart();
        case 'finish':
          return messageEnd(toAnthropicStopReason(part.finishReason), part.finishReason.stopSequence ?? null, part.usage);
        case 'error':
          done = true;
          return [event({ type: 'error', error: { type: anthropicErrorType(part.error), message: part.error.message } })];
        case 'file':
          // Anthropic messages hold no output files.
          return messageStart();
        default:
          return [...messageStart(), ...route(part)];
      }
    },
    finish(): OutboundChunk[] {
      if (done) return [];
      return messageEnd(toAnthropicStopReason({ unified: 'other' }), null, startUsage);
    },
    keepAlive: () => [{ event: 'ping', data: JSON.stringify({ type: 'ping' }) }],
  };
}

function keyOf(part: BlockPart): string {
  if (part.type === 'tool-call') return `tool:${part.toolCallId}`;
  if (part.type.startsWith('tool-')) return `tool:${part.id}`;
  return part.type.startsWith('text-') ? `text:${part.id}` : `reasoning:${part.id}`;
}
