import type { ReasoningPart } from '../../core/content-part.js';
import { DeltaText } from '../../core/delta-text.js';
import type { StreamPart } from '../../core/stream-part.js';
import type { Usage } from '../../core/usage.js';
import { SSE_KEEP_ALIVE_COMMENT, sseEvent } from '../../sse/write-sse.js';
import { encodeOpenAIError } from '../openai-chat/encode-error.js';
import type { ResponseContext, StreamEncoder } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';
import { customToolNamesOf } from './convert-custom-tool.js';
import { ownMetadata } from './convert-reasoning-item.js';
import { createOpenAIResponsesObject, type ResponseOutcome } from './encode-response.js';
import { toOpenAIResponsesStatus } from './map-finish-reason.js';
import { createStreamItem, createStreamItemWriter, type StreamItem } from './write-stream-item.js';

/**
 * Stream parts → Responses events (docs/protocols.md §3.4, §8): `response.created`, `response.in_progress`,
 * then one output item at a time, then `response.completed` / `response.incomplete` with the full
 * Response, or `error` + `response.failed`. Every event has `event:` equal to `data.type` and a
 * `sequence_number` from 0, since the SDK's strict `responses.stream()` checks them.
 *
 * Items never interleave on the wire, but core parts may (Chat upstreams stream parallel tool calls
 * side by side, and close them all at the end). Text and reasoning can be cut: when another item
 * must start, they are closed, and later deltas open a new item. Function-call arguments cannot be
 * cut, so while a call is open, items that start are held back, with their deltas, until it ends.
 */
export function createOpenAIResponsesStreamEncoder(context: ResponseContext): StreamEncoder {
  return new OpenAIResponsesStreamEncoder(context);
}

/** A class, not a factory of closures: it lives as long as its stream, and what runs per event is a method (CONTRIBUTING.md, "Code"). */
class OpenAIResponsesStreamEncoder implements StreamEncoder {
  #context: ResponseContext;
  #output: JsonObject[] = [];
  #pending: StreamItem[] = [];
  #closedReasoning = new Map<string, StreamItem>();
  #closedCalls = new Set<string>();
  #live: StreamItem | undefined;
  /** The records written by the current call. */
  #out = '';
  #sequence = 0;
  #started = false;
  #done = false;
  #usage: Usage | null = null;
  #fileCount = 0;
  #customTools: ReadonlySet<string>;
  #writer: StreamItemWriter;

  constructor(context: ResponseContext) {
    this.#context = context;
    this.#customTools = customToolNamesOf(context.request);
    // Bound once per stream: the writer calls them without a receiver.
    this.#writer = createStreamItemWriter(context.requestId, this.#output, this.#emit.bind(this), this.#emitJson.bind(this));
  }

  encode(part: StreamPart): string {
    // Responses has one output per request; parts of other choices have nowhere to go.
    if (this.#done || ('choice' in part && part.choice !== undefined && part.choice !== 0)) return '';
    this.#out = '';
    this.#ensureStarted();
    this.#handle(part);
    return this.#out;
  }

  finish(): string {
    if (this.#done) return '';
    this.#out = '';
    this.#ensureStarted();
    this.#closeAll();
    this.#respond('response.completed', { status: 'completed', output: this.#output, usage: this.#usage });
    this.#done = true;
    return this.#out;
  }

  // A comment, never an event: the SDK's stream helper throws on event types it does not know.
  keepAlive(): string {
    return SSE_KEEP_ALIVE_COMMENT;
  }

  #handle(part: StreamPart): void {
    switch (part.type) {
      case 'start':
        return;
      case 'text-start':
        return this.#startText(part.id, ownMetadata(part).itemId);
      case 'text-delta': {
        if (!this.#find('message', part.id)) this.#startText(part.id, undefined);
        return this.#addDelta(this.#find('message', part.id)!, part.delta);
      }
      case 'text-end': {
        const item = this.#find('message', part.id);
        if (item && item !== this.#live) item.ended = true;
        if (item && item === this.#live) {
          this.#writer.closePart(item);
          if (this.#pending.length > 0) this.#closeLive();
        }
        return;
      }
      case 'reasoning-start':
      case 'reasoning-delta': {
        if (!this.#find('reasoning', part.id)) {
          const reasoning: ReasoningPart = { type: 'reasoning', text: '' };
          if (part.type === 'reasoning-start' && part.redactedData !== undefined) reasoning.redactedData = part.redactedData;
          if (part.type === 'reasoning-start' && part.protocolMetadata) reasoning.protocolMetadata = part.protocolMetadata;
          this.#startItem(createStreamItem('reasoning', part.id, { reasoning }));
        }
        if (part.type === 'reasoning-delta') this.#addDelta(this.#find('reasoning', part.id)!, part.delta);
        return;
      }
      case 'reasoning-end': {
        const item = this.#find('reasoning', part.id) ?? this.#closedReasoning.get(part.id);
        if (!item) return;
        if (part.signature !== undefined) item.reasoning!.signature = part.signature;
        if (part.protocolMetadata) item.reasoning!.protocolMetadata = Object.assign({}, item.reasoning!.protocolMetadata, part.protocolMetadata);
        if (item === this.#live) this.#closeLive();
        else if (item.outputIndex < 0) item.ended = true;
        // Cut early by another item: its done event is out, but the final response gets the metadata.
        else this.#output[item.outputIndex] = this.#writer.snapshot(item, 'completed');
        return;
      }
      case 'tool-input-start':
        if (!this.#find('function_call', part.id) && !this.#closedCalls.has(part.id)) this.#startItem(this.#callItem(part.id, part.toolName));
        return;
      case 'tool-input-delta': {
        const item = this.#find('function_call', part.id);
        if (item) this.#addDelta(item, part.delta);
        return;
      }
      case 'tool-input-end':
        return;
      case 'tool-call': {
        const item = this.#find('function_call', part.toolCallId);
        if (!item) {
          if (!this.#closedCalls.has(part.toolCallId)) this.#startItem(this.#callItem(part.toolCallId, part.toolName, { text: new DeltaText(part.input), ended: true }));
          return;
        }
        item.toolName = part.toolName || item.toolName;
        if (item !== this.#live) {
          item.text = new DeltaText(part.input);
          item.ended = true;
          return;
        }
        // The complete call is authoritative; stream what the deltas did not carry.
        const streamed = item.text.toString();
        if (part.input.startsWith(streamed) && part.input.length > streamed.length) this.#writer.delta(item, part.input.slice(streamed.length));
        item.text = new DeltaText(part.input);
        return this.#closeLive();
      }
      case 'file':
        // Responses has an output item for images only; other files (audio, documents) have none.
        if (part.mediaType.startsWith('image/')) this.#startItem(createStreamItem('image', `file-${this.#fileCount++}`, { image: { mediaType: part.mediaType, base64: part.base64 }, ended: true }));
        return;
      case 'finish': {
        const usage = part.usage;
        this.#usage = usage;
        this.#closeAll();
        const output = this.#output;
        const { status, incompleteDetails } = toOpenAIResponsesStatus(part.finishReason);
        if (status === 'failed') return this.#fail({ status, output, usage, error: { code: 'server_error', message: 'The upstream failed before the response was complete.' } });
        this.#respond(status === 'incomplete' ? 'response.incomplete' : 'response.completed', { status, output, usage, incompleteDetails });
        this.#done = true;
        return;
      }
      case 'error': {
        const wire = (encodeOpenAIError(part.error).body as { error: { message: string; type: string; param: string | null; code: string | null } }).error;
        this.#emit('error', { code: wire.code ?? wire.type, message: wire.message, param: wire.param });
        return this.#fail({ status: 'failed', output: this.#output, usage: this.#usage, error: { code: toResponseErrorCode(wire.code), message: wire.message } });
      }
      default: {
        const unexpected: never = part;
        throw new Error(`Unhandled stream part ${JSON.stringify(unexpected)}`);
      }
    }
  }

  #callItem(coreId: string, toolName: string, fields: Partial<StreamItem> = {}): StreamItem {
    return createStreamItem('function_call', coreId, { toolName, ...(this.#customTools.has(toolName) && { custom: true }), ...fields });
  }

  #emit(type: string, fields: JsonObject): void {
    this.#out += sseEvent(type, JSON.stringify({ type, ...fields, sequence_number: this.#sequence++ }));
  }

  // Event types are constants that JSON needs no escaping for.
  #emitJson(type: string, fieldsJson: string): void {
    this.#out += sseEvent(type, `{"type":"${type}",${fieldsJson},"sequence_number":${this.#sequence++}}`);
  }

  #respond(type: string, outcome: ResponseOutcome): void {
    this.#emit(type, { response: createOpenAIResponsesObject(this.#context, outcome) });
  }

  #ensureStarted(): void {
    if (this.#started) return;
    this.#started = true;
    this.#respond('response.created', { status: 'in_progress', output: [], usage: null });
    this.#respond('response.in_progress', { status: 'in_progress', output: [], usage: null });
  }

  #open(item: StreamItem): void {
    this.#live = item;
    this.#writer.open(item);
  }

  #closeLiveOnly(): void {
    const item = this.#live!;
    this.#live = undefined;
    this.#writer.close(item);
    if (item.kind === 'function_call') this.#closedCalls.add(item.coreId);
    if (item.kind === 'reasoning') this.#closedReasoning.set(item.coreId, item);
  }

  #promote(): void {
    while (!this.#live && this.#pending.length > 0) {
      const item = this.#pending.shift()!;
      this.#open(item);
      if (item.ended) this.#closeLiveOnly();
    }
  }

  #closeLive(): void {
    this.#closeLiveOnly();
    this.#promote();
  }

  #startItem(item: StreamItem): void {
    while (this.#live && this.#live.kind !== 'function_call') this.#closeLive();
    if (this.#live) {
      this.#pending.push(item);
      return;
    }
    this.#open(item);
    if (item.ended) this.#closeLive();
  }

  #closeAll(): void {
    for (const item of this.#pending) item.ended = true;
    if (this.#live) this.#closeLive();
    else this.#promote();
  }

  #find(kind: StreamItem['kind'], coreId: string): StreamItem | undefined {
    const live = this.#live;
    if (live?.kind === kind && live.coreId === coreId && (kind !== 'message' || live.partOpen)) return live;
    // A plain loop: this runs for every delta, and a callback per call is a closure per call.
    for (const item of this.#pending) if (item.kind === kind && item.coreId === coreId) return item;
    return undefined;
  }

  #startText(coreId: string, groupId: unknown): void {
    const live = this.#live;
    if (live?.kind === 'message' && !live.partOpen && live.groupId === groupId && this.#pending.length === 0) {
      live.coreId = coreId;
      return this.#writer.openPart(live);
    }
    this.#startItem(createStreamItem('message', coreId, { groupId }));
  }

  #addDelta(item: StreamItem, delta: string): void {
    if (item === this.#live) this.#writer.delta(item, delta);
    else item.text.append(delta);
  }

  #fail(outcome: ResponseOutcome): void {
    if (this.#live) this.#output[this.#live.outputIndex] = this.#writer.snapshot(this.#live, 'incomplete');
    this.#respond('response.failed', outcome);
    this.#done = true;
  }
}

type StreamItemWriter = ReturnType<typeof createStreamItemWriter>;

/**
 * `Response.error.code` is a closed set in the SDKs' types (openai-python rejects other values):
 * a code outside it becomes `server_error`, and the `error` event before it keeps the precise one.
 */
const RESPONSE_ERROR_CODES: ReadonlySet<string> = new Set(['server_error', 'rate_limit_exceeded', 'invalid_prompt']);

function toResponseErrorCode(code: string | null): string {
  return code !== null && RESPONSE_ERROR_CODES.has(code) ? code : 'server_error';
}
