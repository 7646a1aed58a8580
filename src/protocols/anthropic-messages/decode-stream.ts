import { DeltaText } from '../../core/delta-text.js';
import type { FinishReason } from '../../core/finish-reason.js';
import type { ProtocolMetadata } from '../../core/protocol.js';
import type { StreamPart } from '../../core/stream-part.js';
import type { SseEvent } from '../../sse/sse-event.js';
import type { StreamDecoder } from '../protocol-codec.js';
import { parseEventData } from '../parse-event-data.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { readAnthropicExtraFields, toAnthropicMetadata, markAsAnthropic } from './block-metadata.js';
import { convertAnthropicMessagesUsage } from './convert-usage.js';
import { decodeAnthropicMessagesError } from './decode-error.js';
import { mapAnthropicErrorTypeToStatus } from './encode-error.js';
import { mapAnthropicStopReason } from './map-stop-reason.js';
import { invalidStreamEvent, streamEndedEarly } from '../../core/stream-ended-early.js';

/**
 * The Messages stream's completion rule: it is complete at `message_stop`; an `error` event ends it
 * too. Read on the raw event, for a passthrough stream's last events; the decoder below follows it.
 */
export function endsAnthropicMessagesStream(event: SseEvent): boolean {
  if (event.unframed) return false;
  if (event.event === 'message_stop' || event.event === 'error') return true;
  const data = parseEventData(event.data);
  if (data === undefined) return false;
  return isJsonObject(data) && (data.type === 'message_stop' || data.type === 'error');
}

/** A content block being streamed, by its `index`. Part ids are the index (unique per message). */
type OpenBlock =
  | { kind: 'text'; id: string }
  | { kind: 'reasoning'; id: string; signature: string }
  | { kind: 'tool'; id: string; name: string; input: DeltaText; initialInput: unknown; metadata: { protocolMetadata?: ProtocolMetadata } };

/**
 * Anthropic stream events (docs/protocols.md §2.5) → stream parts. Input tokens come in
 * `message_start`, the cumulative totals in `message_delta`; the finish goes out at `message_stop`
 * (a stream that ends before it, or with an event that is not JSON, ends with an error part instead:
 * `endsAnthropicMessagesStream`). Skipped on purpose: `ping`, `citations_delta`, and
 * server tool blocks (server_tool_use, web_search_tool_result, ...), which only Anthropic can run
 * or show; unknown events too, so a newer API does not break the stream.
 */
export function createAnthropicMessagesStreamDecoder(): StreamDecoder {
  return new AnthropicMessagesStreamDecoder();
}

/** A class, not a factory of closures: it lives as long as its stream, and what runs per event is a method (CONTRIBUTING.md, "Code"). */
class AnthropicMessagesStreamDecoder implements StreamDecoder {
  #open = new Map<number, OpenBlock>();
  #started = false;
  #finished = false;
  #usage: JsonObject = {};
  #finishReason: FinishReason = { unified: 'other' };

  decode(event: SseEvent): StreamPart[] {
    if (this.#finished || event.unframed) return [];
    const data = parseEventData(event.data);
    if (data === undefined) {
      this.#finished = true;
      return [{ type: 'error', error: invalidStreamEvent() }];
    }
    if (!isJsonObject(data)) return [];
    // The SSE event name and `data.type` agree on the wire; the type is what the SDK reads.
    const type = typeof data.type === 'string' ? data.type : event.event;
    switch (type) {
      case 'message_start': {
        if (this.#started) return [];
        this.#started = true;
        const message: JsonObject = isJsonObject(data.message) ? data.message : {};
        this.#usage = isJsonObject(message.usage) ? { ...message.usage } : {};
        return [
          {
            type: 'start',
            ...(typeof message.id === 'string' && { id: message.id }),
            ...(typeof message.model === 'string' && { model: message.model }),
            usage: convertAnthropicMessagesUsage(this.#usage),
          },
        ];
      }
      case 'content_block_start':
        return typeof data.index === 'number' && isJsonObject(data.content_block) ? this.#startBlock(data.index, data.content_block) : [];
      case 'content_block_delta':
        return typeof data.index === 'number' && isJsonObject(data.delta) ? this.#delta(data.index, data.delta) : [];
      case 'content_block_stop': {
        const block = typeof data.index === 'number' ? this.#open.get(data.index) : undefined;
        return block ? this.#closeBlock(data.index as number, block) : [];
      }
      case 'message_delta': {
        const messageDelta: JsonObject = isJsonObject(data.delta) ? data.delta : {};
        const stopReason = typeof messageDelta.stop_reason === 'string' ? messageDelta.stop_reason : null;
        this.#finishReason = mapAnthropicStopReason(stopReason, typeof messageDelta.stop_sequence === 'string' ? messageDelta.stop_sequence : null);
        // Counts are cumulative totals; a counter left out keeps its message_start value.
        if (isJsonObject(data.usage)) {
          const usage = Object.assign({}, this.#usage);
          for (const [key, value] of Object.entries(data.usage)) {
            if (value !== null && value !== undefined) usage[key] = value;
          }
          this.#usage = usage;
        }
        return [];
      }
      case 'message_stop':
        return this.#finish();
      case 'error': {
        this.#finished = true;
        const errorType = isJsonObject(data.error) && typeof data.error.type === 'string' ? data.error.type : 'api_error';
        return [{ type: 'error', error: decodeAnthropicMessagesError(mapAnthropicErrorTypeToStatus(errorType), event.data) }];
      }
      default:
        return [];
    }
  }

  end(): StreamPart[] {
    if (this.#finished) return [];
    this.#finished = true;
    return [{ type: 'error', error: streamEndedEarly('message_stop') }];
  }

  #closeBlock(index: number, block: OpenBlock): StreamPart[] {
    this.#open.delete(index);
    switch (block.kind) {
      case 'text':
        return [{ type: 'text-end', id: block.id }];
      case 'reasoning':
        return [{ type: 'reasoning-end', id: block.id, ...(block.signature && { signature: block.signature }) }];
      case 'tool': {
        // Tool input is a JSON object: no fragments at all means the block's own (empty) input.
        const input = block.input.toString() || JSON.stringify(block.initialInput ?? {});
        return [{ type: 'tool-input-end', id: block.id }, { type: 'tool-call', toolCallId: block.id, toolName: block.name, input, ...block.metadata }];
      }
      default: {
        const unexpected: never = block;
        throw new Error(`Unhandled block ${JSON.stringify(unexpected)}`);
      }
    }
  }

  #finish(): StreamPart[] {
    if (!this.#started || this.#finished) return [];
    this.#finished = true;
    const parts: StreamPart[] = [];
    // A copy: closing a block takes it out of the map.
    for (const [index, block] of [...this.#open.entries()]) parts.push(...this.#closeBlock(index, block));
    parts.push({ type: 'finish', finishReason: this.#finishReason, usage: convertAnthropicMessagesUsage(this.#usage) });
    return parts;
  }

  #startBlock(index: number, block: JsonObject): StreamPart[] {
    const id = String(index);
    switch (block.type) {
      case 'text': {
        this.#open.set(index, { kind: 'text', id });
        const parts: StreamPart[] = [{ type: 'text-start', id }];
        if (typeof block.text === 'string' && block.text) parts.push({ type: 'text-delta', id, delta: block.text });
        return parts;
      }
      case 'thinking': {
        // Marked as Anthropic's: only Anthropic can check the signature that ends the block.
        this.#open.set(index, { kind: 'reasoning', id, signature: typeof block.signature === 'string' ? block.signature : '' });
        const parts: StreamPart[] = [{ type: 'reasoning-start', id, ...markAsAnthropic({}) }];
        if (typeof block.thinking === 'string' && block.thinking) parts.push({ type: 'reasoning-delta', id, delta: block.thinking });
        return parts;
      }
      case 'redacted_thinking':
        this.#open.set(index, { kind: 'reasoning', id, signature: '' });
        return [{ type: 'reasoning-start', id, redactedData: typeof block.data === 'string' ? block.data : '', ...markAsAnthropic({}) }];
      case 'tool_use': {
        const toolId = typeof block.id === 'string' ? block.id : `toolu_${index}`;
        const name = typeof block.name === 'string' ? block.name : '';
        const metadata = toAnthropicMetadata(readAnthropicExtraFields(block, ['id', 'name', 'input']));
        this.#open.set(index, { kind: 'tool', id: toolId, name, input: new DeltaText(), initialInput: block.input, metadata });
        return [{ type: 'tool-input-start', id: toolId, toolName: name, ...metadata }];
      }
      default:
        return [];
    }
  }

  #delta(index: number, value: JsonObject): StreamPart[] {
    const block = this.#open.get(index);
    if (!block) return [];
    if (value.type === 'text_delta' && block.kind === 'text' && typeof value.text === 'string' && value.text) {
      return [{ type: 'text-delta', id: block.id, delta: value.text }];
    }
    if (value.type === 'thinking_delta' && block.kind === 'reasoning' && typeof value.thinking === 'string' && value.thinking) {
      return [{ type: 'reasoning-delta', id: block.id, delta: value.thinking }];
    }
    if (value.type === 'signature_delta' && block.kind === 'reasoning' && typeof value.signature === 'string') {
      block.signature = value.signature;
    }
    // The first fragment is usually "": nothing to forward.
    if (value.type === 'input_json_delta' && block.kind === 'tool' && typeof value.partial_json === 'string' && value.partial_json) {
      block.input.append(value.partial_json);
      return [{ type: 'tool-input-delta', id: block.id, delta: value.partial_json }];
    }
    return [];
  }
}
