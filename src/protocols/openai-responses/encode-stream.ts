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
  const output: JsonObject[] = [];
  const pending: StreamItem[] = [];
  const closedReasoning = new Map<string, StreamItem>();
  const closedCalls = new Set<string>();
  let live: StreamItem | undefined;
  /** The records written by the current call. */
  let out = '';
  let sequence = 0;
  let started = false;
  let done = false;
  let usage: Usage | null = null;
  let fileCount = 0;
  const customTools = customToolNamesOf(context.request);
  const callItem = (coreId: string, toolName: string, fields: Partial<StreamItem> = {}) =>
    createStreamItem('function_call', coreId, { toolName, ...(customTools.has(toolName) && { custom: true }), ...fields });

  const emit = (type: string, fields: JsonObject) => {
    out += sseEvent(type, JSON.stringify({ type, ...fields, sequence_number: sequence++ }));
  };
  // Event types are constants that JSON needs no escaping for.
  const emitJson = (type: string, fieldsJson: string) => {
    out += sseEvent(type, `{"type":"${type}",${fieldsJson},"sequence_number":${sequence++}}`);
  };
  const respond = (type: string, outcome: ResponseOutcome) => emit(type, { response: createOpenAIResponsesObject(context, outcome) });
  const ensureStarted = () => {
    if (started) return;
    started = true;
    respond('response.created', { status: 'in_progress', output: [], usage: null });
    respond('response.in_progress', { status: 'in_progress', output: [], usage: null });
  };
  const writer = createStreamItemWriter(context.requestId, output, emit, emitJson);

  const open = (item: StreamItem) => {
    live = item;
    writer.open(item);
  };
  const closeLiveOnly = () => {
    const item = live!;
    live = undefined;
    writer.close(item);
    if (item.kind === 'function_call') closedCalls.add(item.coreId);
    if (item.kind === 'reasoning') closedReasoning.set(item.coreId, item);
  };
  const promote = () => {
    while (!live && pending.length > 0) {
      const item = pending.shift()!;
      open(item);
      if (item.ended) closeLiveOnly();
    }
  };
  const closeLive = () => {
    closeLiveOnly();
    promote();
  };
  const startItem = (item: StreamItem) => {
    while (live && live.kind !== 'function_call') closeLive();
    if (live) return pending.push(item);
    open(item);
    if (item.ended) closeLive();
  };
  const closeAll = () => {
    for (const item of pending) item.ended = true;
    if (live) closeLive();
    else promote();
  };

  const find = (kind: StreamItem['kind'], coreId: string): StreamItem | undefined => {
    if (live?.kind === kind && live.coreId === coreId && (kind !== 'message' || live.partOpen)) return live;
    return pending.find((item) => item.kind === kind && item.coreId === coreId);
  };
  const startText = (coreId: string, groupId: unknown) => {
    if (live?.kind === 'message' && !live.partOpen && live.groupId === groupId && pending.length === 0) {
      live.coreId = coreId;
      return writer.openPart(live);
    }
    startItem(createStreamItem('message', coreId, { groupId }));
  };
  const addDelta = (item: StreamItem, delta: string) => (item === live ? writer.delta(item, delta) : item.text.append(delta));
  const fail = (outcome: ResponseOutcome) => {
    if (live) output[live.outputIndex] = writer.snapshot(live, 'incomplete');
    respond('response.failed', outcome);
    done = true;
  };

  const handle = (part: StreamPart) => {
    switch (part.type) {
      case 'start':
        return;
      case 'text-start':
        return startText(part.id, ownMetadata(part).itemId);
      case 'text-delta': {
        if (!find('message', part.id)) startText(part.id, undefined);
        return addDelta(find('message', part.id)!, part.delta);
      }
      case 'text-end': {
        const item = find('message', part.id);
        if (item && item !== live) item.ended = true;
        if (item && item === live) {
          writer.closePart(item);
          if (pending.length > 0) closeLive();
        }
        return;
      }
      case 'reasoning-start':
      case 'reasoning-delta': {
        if (!find('reasoning', part.id)) {
          const reasoning: ReasoningPart = { type: 'reasoning', text: '' };
          if (part.type === 'reasoning-start' && part.redactedData !== undefined) reasoning.redactedData = part.redactedData;
          if (part.type === 'reasoning-start' && part.protocolMetadata) reasoning.protocolMetadata = part.protocolMetadata;
          startItem(createStreamItem('reasoning', part.id, { reasoning }));
        }
        if (part.type === 'reasoning-delta') addDelta(find('reasoning', part.id)!, part.delta);
        return;
      }
      case 'reasoning-end': {
        const item = find('reasoning', part.id) ?? closedReasoning.get(part.id);
        if (!item) return;
        if (part.signature !== undefined) item.reasoning!.signature = part.signature;
        if (part.protocolMetadata) item.reasoning!.protocolMetadata = Object.assign({}, item.reasoning!.protocolMetadata, part.protocolMetadata);
        if (item === live) closeLive();
        else if (item.outputIndex < 0) item.ended = true;
        // Cut early by another item: its done event is out, but the final response gets the metadata.
        else output[item.outputIndex] = writer.snapshot(item, 'completed');
        return;
      }
      case 'tool-input-start':
        if (!find('function_call', part.id) && !closedCalls.has(part.id)) startItem(callItem(part.id, part.toolName));
        return;
      case 'tool-input-delta': {
        const item = find('function_call', part.id);
        if (item) addDelta(item, part.delta);
        return;
      }
      case 'tool-input-end':
        return;
      case 'tool-call': {
        const item = find('function_call', part.toolCallId);
        if (!item) {
          if (!closedCalls.has(part.toolCallId)) startItem(callItem(part.toolCallId, part.toolName, { text: new DeltaText(part.input), ended: true }));
          return;
        }
        item.toolName = part.toolName || item.toolName;
        if (item !== live) {
          item.text = new DeltaText(part.input);
          item.ended = true;
          return;
        }
        // The complete call is authoritative; stream what the deltas did not carry.
        const streamed = item.text.toString();
        if (part.input.startsWith(streamed) && part.input.length > streamed.length) writer.delta(item, part.input.slice(streamed.length));
        item.text = new DeltaText(part.input);
        return closeLive();
      }
      case 'file':
        // Responses has an output item for images only; other files (audio, documents) have none.
        if (part.mediaType.startsWith('image/')) startItem(createStreamItem('image', `file-${fileCount++}`, { image: { mediaType: part.mediaType, base64: part.base64 }, ended: true }));
        return;
      case 'finish': {
        usage = part.usage;
        closeAll();
        const { status, incompleteDetails } = toOpenAIResponsesStatus(part.finishReason);
        if (status === 'failed') return fail({ status, output, usage, error: { code: 'server_error', message: 'The upstream failed before the response was complete.' } });
        respond(status === 'incomplete' ? 'response.incomplete' : 'response.completed', { status, output, usage, incompleteDetails });
        done = true;
        return;
      }
      case 'error': {
        const wire = (encodeOpenAIError(part.error).body as { error: { message: string; type: string; param: string | null; code: string | null } }).error;
        emit('error', { code: wire.code ?? wire.type, message: wire.message, param: wire.param });
        return fail({ status: 'failed', output, usage, error: { code: toResponseErrorCode(wire.code), message: wire.message } });
      }
      default: {
        const unexpected: never = part;
        throw new Error(`Unhandled stream part ${JSON.stringify(unexpected)}`);
      }
    }
  };

  return {
    encode(part: StreamPart): string {
      // Responses has one output per request; parts of other choices have nowhere to go.
      if (done || ('choice' in part && part.choice !== undefined && part.choice !== 0)) return '';
      out = '';
      ensureStarted();
      handle(part);
      return out;
    },
    finish(): string {
      if (done) return '';
      out = '';
      ensureStarted();
      closeAll();
      respond('response.completed', { status: 'completed', output, usage });
      done = true;
      return out;
    },
    // A comment, never an event: the SDK's stream helper throws on event types it does not know.
    keepAlive: () => SSE_KEEP_ALIVE_COMMENT,
  };
}

/**
 * `Response.error.code` is a closed set in the SDKs' types (openai-python rejects other values):
 * a code outside it becomes `server_error`, and the `error` event before it keeps the precise one.
 */
const RESPONSE_ERROR_CODES: ReadonlySet<string> = new Set(['server_error', 'rate_limit_exceeded', 'invalid_prompt']);

function toResponseErrorCode(code: string | null): string {
  return code !== null && RESPONSE_ERROR_CODES.has(code) ? code : 'server_error';
}
