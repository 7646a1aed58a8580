import type { ReasoningPart } from '../../core/content-part.js';
import { DeltaText } from '../../core/delta-text.js';
import type { JsonObject } from '../read-fields.js';
import { encodeReasoningItem } from './convert-reasoning-item.js';
import { readCustomToolInput } from './convert-custom-tool.js';
import { createCallId, createCustomToolCallItem, createFunctionCallItem, createImageItem, createMessageItem, createOutputItemId, createOutputText, type ItemStatus } from './encode-output-items.js';

/** One output item of a Responses stream, from the part that opens it to its `output_item.done`. */
export interface StreamItem {
  kind: 'message' | 'function_call' | 'reasoning' | 'image';
  /** The core part id its deltas name: the current text id, the tool call id, the reasoning id. */
  coreId: string;
  /** The core has sent the part's end while the item still waited its turn. */
  ended: boolean;
  /** Text of the open output_text, the arguments, or the reasoning text (kept as long as the item: a DeltaText). */
  text: DeltaText;
  /** The Responses item id of the text: a message ends where it changes. */
  groupId?: unknown;
  toolName: string;
  /** A function call of one of the client's custom tools: sent whole as a `custom_tool_call` when it ends. */
  custom?: boolean;
  reasoning?: ReasoningPart;
  image?: { mediaType: string; base64: string };
  /** Set when the item goes on the wire; -1 before. */
  outputIndex: number;
  id: string;
  callId: string;
  /** Message: the finished output_text parts. */
  content: JsonObject[];
  /** Message: an output_text part is open; reasoning: the summary part is open. */
  partOpen: boolean;
  /** The JSON of its item_id and output_index, once it is on the wire (for its deltas). */
  referenceJson?: string;
}

export function createStreamItem(kind: StreamItem['kind'], coreId: string, fields: Partial<StreamItem> = {}): StreamItem {
  return { kind, coreId, ended: false, text: new DeltaText(), toolName: '', outputIndex: -1, id: '', callId: '', content: [], partOpen: false, ...fields };
}

const ID_PREFIXES = { message: 'msg', function_call: 'fc', reasoning: 'rs', image: 'ig' } as const;

/** Writes an event: `{type, ...fields, sequence_number}`. */
export type EmitEvent = (type: string, fields: JsonObject) => void;
/**
 * Writes an event whose fields are already JSON (`"a":1,"b":2`, between `type` and
 * `sequence_number`): how the deltas, most of a stream, are written without an object in between.
 */
export type EmitEventJson = (type: string, fieldsJson: string) => void;

/**
 * The wire events of one item (docs/protocols.md §3.4 table): added, part added, deltas, part done, done.
 * `output` is the Response's output array, kept current for the terminal event.
 */
export function createStreamItemWriter(requestId: string, output: JsonObject[], emit: EmitEvent, emitJson: EmitEventJson) {
  /** An event's fields after the `item_id` and `output_index` of the item it belongs to. */
  const referenced = (item: StreamItem, fields: JsonObject): JsonObject => Object.assign({ item_id: item.id, output_index: item.outputIndex }, fields);
  /** `"item_id":…,"output_index":…` of the item a delta belongs to, made once per item. */
  const referenceJson = (item: StreamItem) => (item.referenceJson ??= `"item_id":${JSON.stringify(item.id)},"output_index":${item.outputIndex}`);

  const openPart = (item: StreamItem) => {
    item.partOpen = true;
    if (item.kind === 'message') emit('response.content_part.added', referenced(item, { content_index: item.content.length, part: createOutputText('') }));
    else emit('response.reasoning_summary_part.added', referenced(item, { summary_index: 0, part: { type: 'summary_text', text: '' } }));
  };

  const closePart = (item: StreamItem) => {
    if (!item.partOpen) return;
    item.partOpen = false;
    if (item.kind === 'message') {
      const contentIndex = item.content.length;
      const text = item.text.toString();
      const part = createOutputText(text);
      item.content.push(part);
      emit('response.output_text.done', referenced(item, { content_index: contentIndex, text, logprobs: [] }));
      emit('response.content_part.done', referenced(item, { content_index: contentIndex, part }));
      item.text = new DeltaText();
    } else {
      const text = item.text.toString();
      emit('response.reasoning_summary_text.done', referenced(item, { summary_index: 0, text }));
      emit('response.reasoning_summary_part.done', referenced(item, { summary_index: 0, part: { type: 'summary_text', text } }));
    }
  };

  // The same fields, in the same order, as the other events' objects would stringify to.
  const delta = (item: StreamItem, text: string) => {
    item.text.append(text);
    // `{input}` arguments arrive as JSON pieces; the custom tool's text is known only at the end.
    if (item.custom) return;
    const json = JSON.stringify(text);
    if (item.kind === 'function_call') return emitJson('response.function_call_arguments.delta', `${referenceJson(item)},"delta":${json}`);
    if (!item.partOpen) openPart(item);
    if (item.kind === 'message') emitJson('response.output_text.delta', `${referenceJson(item)},"content_index":${item.content.length},"delta":${json},"logprobs":[]`);
    else emitJson('response.reasoning_summary_text.delta', `${referenceJson(item)},"summary_index":0,"delta":${json}`);
  };

  /** The item as it stands, in the shape encodeResponse writes. */
  const snapshot = (item: StreamItem, status: ItemStatus): JsonObject => {
    switch (item.kind) {
      case 'message':
        return createMessageItem(item.id, status, item.partOpen ? [...item.content, createOutputText(item.text.toString())] : [...item.content]);
      case 'function_call':
        if (item.custom) return createCustomToolCallItem(item.id, item.callId, item.toolName, status === 'in_progress' ? '' : readCustomToolInput(item.text.toString()), status);
        return createFunctionCallItem(item.id, item.callId, item.toolName, item.text.toString(), status);
      case 'reasoning':
        return encodeReasoningItem(Object.assign({}, item.reasoning, { type: 'reasoning' as const, text: item.text.toString() }), item.id);
      case 'image':
        return createImageItem(item.id, item.image!.mediaType, status === 'completed' ? item.image!.base64 : null, status);
      default: {
        const unexpected: never = item.kind;
        throw new Error(`Unhandled item kind ${String(unexpected)}`);
      }
    }
  };

  /** `output_item.added`, then a message's text part and what the item buffered while it waited. */
  const open = (item: StreamItem) => {
    item.outputIndex = output.length;
    item.id = createOutputItemId(item.custom ? 'ctc' : ID_PREFIXES[item.kind], requestId, item.outputIndex);
    item.callId = createCallId(item.coreId, requestId, item.outputIndex);
    const buffered = item.text.toString();
    item.text = new DeltaText();
    const added = item.kind === 'reasoning' ? { type: 'reasoning', id: item.id, summary: [] } : snapshot(item, 'in_progress');
    output.push(added);
    emit('response.output_item.added', { output_index: item.outputIndex, item: added });
    if (item.kind === 'message') openPart(item);
    if (buffered) delta(item, buffered);
  };

  const close = (item: StreamItem) => {
    if (item.custom) {
      const input = readCustomToolInput(item.text.toString());
      emit('response.custom_tool_call_input.delta', referenced(item, { delta: input }));
      emit('response.custom_tool_call_input.done', referenced(item, { input }));
    } else if (item.kind === 'function_call') {
      emit('response.function_call_arguments.done', referenced(item, { name: item.toolName, arguments: item.text.toString() }));
    }
    closePart(item);
    output[item.outputIndex] = snapshot(item, 'completed');
    emit('response.output_item.done', { output_index: item.outputIndex, item: output[item.outputIndex] });
  };

  return { open, close, delta, openPart, closePart, snapshot };
}
