import { DeltaText } from '../../core/delta-text.js';
import type { StreamPart } from '../../core/stream-part.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { decodeReasoningItem } from './convert-reasoning-item.js';
import { contentText, decodeImageItem, messageMetadata } from './decode-response.js';

/**
 * What a `.done` event's whole text adds to the deltas already passed on. The whole text is the
 * authority (the SDK replaces its snapshot with it), and recorded streams do drop deltas.
 */
function missingSuffix(streamed: string, whole: string | undefined): string {
  return whole && whole.length > streamed.length && whole.startsWith(streamed) ? whole.slice(streamed.length) : '';
}

// What streamed so far is kept as a DeltaText: it lives as long as the stream (CONTRIBUTING.md).
interface TextState {
  id: string;
  text: DeltaText;
  open: boolean;
}
interface CallState {
  id: string;
  name: string;
  itemId?: string;
  input: DeltaText;
}
interface ReasoningState {
  id: string;
  text: DeltaText;
}

/**
 * The output items of a Responses stream as they open, grow and close, turned into stream parts
 * pushed onto `parts`. Items are tracked by `output_index`, which every item event carries
 * (function calls may lack an item id).
 */
export function createStreamItemReader() {
  const messages = new Map<number, { metadata?: JsonObject; texts: Map<number, TextState> }>();
  const calls = new Map<number, CallState>();
  const reasonings = new Map<number, ReasoningState>();
  let hasToolCalls = false;

  const messageAt = (index: number, item?: JsonObject) => {
    let message = messages.get(index);
    if (!message) {
      message = { metadata: item && messageMetadata(item), texts: new Map() };
      messages.set(index, message);
    }
    return message;
  };
  const openText = (index: number, contentIndex: number, parts: StreamPart[]): TextState => {
    const message = messageAt(index);
    let text = message.texts.get(contentIndex);
    if (!text) {
      text = { id: `text-${index}-${contentIndex}`, text: new DeltaText(), open: true };
      message.texts.set(contentIndex, text);
      parts.push({ type: 'text-start', id: text.id, ...(message.metadata && { protocolMetadata: { 'openai-responses': { ...message.metadata } } }) });
    }
    return text;
  };
  const closeText = (text: TextState, whole: string | undefined, parts: StreamPart[]) => {
    if (!text.open) return;
    const missing = missingSuffix(text.text.toString(), whole);
    if (missing) parts.push({ type: 'text-delta', id: text.id, delta: missing });
    text.open = false;
    parts.push({ type: 'text-end', id: text.id });
  };

  const callMetadata = (call: CallState) => (call.itemId ? { protocolMetadata: { 'openai-responses': { itemId: call.itemId } } } : {});
  const startCall = (index: number, item: JsonObject, parts: StreamPart[]): CallState => {
    hasToolCalls = true;
    const call: CallState = { id: String(item.call_id || `call_${index}`), name: String(item.name ?? ''), input: new DeltaText() };
    if (typeof item.id === 'string' && item.id) call.itemId = item.id;
    calls.set(index, call);
    parts.push({ type: 'tool-input-start', id: call.id, toolName: call.name, ...callMetadata(call) });
    return call;
  };
  const finishCall = (index: number, call: CallState, whole: string | undefined, parts: StreamPart[]) => {
    const streamed = call.input.toString();
    const missing = missingSuffix(streamed, whole);
    if (missing) parts.push({ type: 'tool-input-delta', id: call.id, delta: missing });
    parts.push({ type: 'tool-input-end', id: call.id }, { type: 'tool-call', toolCallId: call.id, toolName: call.name, input: whole ?? streamed, ...callMetadata(call) });
    calls.delete(index);
  };

  const startReasoning = (index: number, item: JsonObject, parts: StreamPart[]): ReasoningState => {
    const reasoning: ReasoningState = { id: `reasoning-${index}`, text: new DeltaText() };
    reasonings.set(index, reasoning);
    const part = decodeReasoningItem(item);
    parts.push({
      type: 'reasoning-start',
      id: reasoning.id,
      ...(part.redactedData !== undefined && { redactedData: part.redactedData }),
      ...(part.protocolMetadata && { protocolMetadata: part.protocolMetadata }),
    });
    return reasoning;
  };
  const finishReasoning = (index: number, reasoning: ReasoningState, item: JsonObject | undefined, parts: StreamPart[]) => {
    const part = item ? decodeReasoningItem(item) : undefined;
    const missing = missingSuffix(reasoning.text.toString(), part?.text);
    if (missing) parts.push({ type: 'reasoning-delta', id: reasoning.id, delta: missing });
    parts.push({
      type: 'reasoning-end',
      id: reasoning.id,
      ...(part?.signature !== undefined && { signature: part.signature }),
      ...(part?.protocolMetadata && { protocolMetadata: part.protocolMetadata }),
    });
    reasonings.delete(index);
  };

  const reasoningDelta = (index: number, delta: string, parts: StreamPart[]) => {
    const reasoning = reasonings.get(index);
    if (!reasoning) return;
    reasoning.text.append(delta);
    parts.push({ type: 'reasoning-delta', id: reasoning.id, delta });
  };

  return {
    hasToolCalls: () => hasToolCalls,

    /** `output_item.added`. Message text parts open with their content parts. */
    added(index: number, item: JsonObject, parts: StreamPart[]) {
      if (item.type === 'message') messageAt(index, item);
      else if (item.type === 'function_call') {
        const call = startCall(index, item, parts);
        if (typeof item.arguments === 'string' && item.arguments) {
          call.input.append(item.arguments);
          parts.push({ type: 'tool-input-delta', id: call.id, delta: item.arguments });
        }
      } else if (item.type === 'reasoning') startReasoning(index, item, parts);
    },

    /** `output_item.done`: the whole item closes what is open and fills in what never streamed. */
    done(index: number, item: JsonObject, parts: StreamPart[]) {
      if (item.type === 'message') {
        const message = messageAt(index, item);
        const content = Array.isArray(item.content) ? item.content : [];
        content.forEach((part, contentIndex) => {
          const whole = isJsonObject(part) ? contentText(part) : undefined;
          if (whole !== undefined || message.texts.has(contentIndex)) closeText(openText(index, contentIndex, parts), whole, parts);
        });
        for (const text of message.texts.values()) closeText(text, undefined, parts);
      } else if (item.type === 'function_call') {
        finishCall(index, calls.get(index) ?? startCall(index, item, parts), typeof item.arguments === 'string' ? item.arguments : undefined, parts);
      } else if (item.type === 'reasoning') {
        finishReasoning(index, reasonings.get(index) ?? startReasoning(index, item, parts), item, parts);
      } else if (item.type === 'image_generation_call') {
        const image = decodeImageItem(item);
        if (image) parts.push({ type: 'file', mediaType: image.mediaType, base64: image.base64 });
      }
    },

    openText,
    /** `content_part.done`: the part's whole text closes it. */
    closeText(index: number, contentIndex: number, whole: string, parts: StreamPart[]) {
      closeText(openText(index, contentIndex, parts), whole, parts);
    },
    textDelta(index: number, contentIndex: number, delta: string, parts: StreamPart[]) {
      const text = openText(index, contentIndex, parts);
      text.text.append(delta);
      parts.push({ type: 'text-delta', id: text.id, delta });
    },
    argumentsDelta(index: number, delta: string, parts: StreamPart[]) {
      const call = calls.get(index);
      if (!call) return;
      call.input.append(delta);
      parts.push({ type: 'tool-input-delta', id: call.id, delta });
    },
    /** Summary parts read as paragraphs, as in the non-stream decoding (joined by blank lines). */
    summaryPartAdded(index: number, summaryIndex: number, parts: StreamPart[]) {
      if (summaryIndex > 0 && reasonings.get(index)?.text.toString()) reasoningDelta(index, '\n\n', parts);
    },
    reasoningDelta,

    /** Before a terminal event: whatever is still open closes with what it has. */
    closeAll(parts: StreamPart[]) {
      for (const message of messages.values()) for (const text of message.texts.values()) closeText(text, undefined, parts);
      for (const [index, call] of calls) finishCall(index, call, undefined, parts);
      for (const [index, reasoning] of reasonings) finishReasoning(index, reasoning, undefined, parts);
    },
  };
}
