import type { AssistantPart } from '../../core/content-part.js';
import type { JsonObject } from '../read-fields.js';
import { readCustomToolInput } from './convert-custom-tool.js';
import { encodeReasoningItem, ownMetadata } from './convert-reasoning-item.js';

/**
 * Output items as a Responses client receives them (docs/protocols.md §3.3), built here once for both
 * encodeResponse and the stream encoder so the two agree. Item ids derive from the request id and
 * the item's position in `output`, which makes them unique and reproducible.
 */

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export function createOutputItemId(prefix: 'msg' | 'fc' | 'ctc' | 'rs' | 'ig', requestId: string, outputIndex: number): string {
  return `${prefix}_${requestId}_${outputIndex}`;
}

/** A Responses `call_id` must be non-empty; upstreams that give none (Gemini) get one derived from the position. */
export function createCallId(toolCallId: string, requestId: string, outputIndex: number): string {
  return toolCallId || `call_${requestId}_${outputIndex}`;
}

export function createOutputText(text: string): JsonObject {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

export function createMessageItem(id: string, status: ItemStatus, content: JsonObject[]): JsonObject {
  return { type: 'message', id, status, role: 'assistant', content };
}

export function createFunctionCallItem(id: string, callId: string, name: string, args: string, status: ItemStatus): JsonObject {
  return { type: 'function_call', id, call_id: callId, name, arguments: args, status };
}

/** A call of one of the client's custom tools: the text the upstream gave as `{input}` (convert-custom-tool.ts). */
export function createCustomToolCallItem(id: string, callId: string, name: string, input: string, status: ItemStatus): JsonObject {
  return { type: 'custom_tool_call', id, call_id: callId, name, input, status };
}

/**
 * An image the model produced (Gemini image output) as the item Responses has for images. Files of
 * other types have no output item in Responses; the encoders skip them.
 */
export function createImageItem(id: string, mediaType: string, base64: string | null, status: ItemStatus): JsonObject {
  return { type: 'image_generation_call', id, status, result: base64, output_format: mediaType.slice('image/'.length) };
}

/** Whether two text parts belong to one message item: yes, unless their Responses item ids differ. */
export function continuesMessage(previousItemId: unknown, part: AssistantPart): boolean {
  return previousItemId === ownMetadata(part).itemId;
}

/** The content of one choice → the `output` array. Calls of `customTools` become custom tool calls. */
export function encodeOpenAIResponsesOutput(content: readonly AssistantPart[], requestId: string, customTools: ReadonlySet<string> = new Set()): JsonObject[] {
  const output: JsonObject[] = [];
  let message: { itemId: unknown; content: JsonObject[] } | undefined;
  for (const part of content) {
    const index = output.length;
    if (part.type !== 'text') message = undefined;
    switch (part.type) {
      case 'text':
        if (!message || !continuesMessage(message.itemId, part)) {
          message = { itemId: ownMetadata(part).itemId, content: [] };
          output.push(createMessageItem(createOutputItemId('msg', requestId, index), 'completed', message.content));
        }
        message.content.push(createOutputText(part.text));
        break;
      case 'tool-call': {
        const callId = createCallId(part.toolCallId, requestId, index);
        output.push(
          customTools.has(part.toolName)
            ? createCustomToolCallItem(createOutputItemId('ctc', requestId, index), callId, part.toolName, readCustomToolInput(part.input), 'completed')
            : createFunctionCallItem(createOutputItemId('fc', requestId, index), callId, part.toolName, part.input, 'completed'),
        );
        break;
      }
      case 'reasoning':
        output.push(encodeReasoningItem(part, createOutputItemId('rs', requestId, index)));
        break;
      case 'file':
        if (part.mediaType.startsWith('image/') && part.data.type === 'base64') {
          output.push(createImageItem(createOutputItemId('ig', requestId, index), part.mediaType, part.data.base64, 'completed'));
        }
        break;
      default: {
        const unexpected: never = part;
        throw new Error(`Unhandled content part ${JSON.stringify(unexpected)}`);
      }
    }
  }
  return output;
}
