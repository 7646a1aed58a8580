import type { AssistantPart, Message, ToolResultPart, UserPart } from '../../core/content-part.js';
import { textOfParts } from '../../core/content-part.js';
import type { Warning } from '../../core/warning.js';
import { convertFileDataToUrl, toDataUrl } from '../data-url.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { readCustomToolInput } from './convert-custom-tool.js';
import { ownMetadata } from './convert-reasoning-item.js';
import type { KeptInputItem } from './decode-input-items.js';

/**
 * Core messages → Responses input items (docs/protocols.md §3.2). Mid-conversation system messages
 * become developer messages (the leading system prompt goes to `instructions`); items the core
 * could not hold are put back where they were.
 */
export function encodeOpenAIResponsesInput(messages: readonly Message[], keptItems: unknown, store: boolean, warnings: Warning[]): JsonObject[] {
  const kept = readKeptItems(keptItems);
  const items: JsonObject[] = [];
  // Calls of a client's custom tools go back as custom items, and so do their outputs.
  const customCalls = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) if (part.type === 'tool-call' && ownMetadata(part).custom === true) customCalls.add(part.toolCallId);
  }
  const putKeptItems = (position: number) => {
    for (const entry of kept) if (entry.position === position) items.push(entry.item);
  };
  messages.forEach((message, index) => {
    putKeptItems(index);
    items.push(...encodeMessage(message, index, store, warnings, customCalls));
  });
  for (const entry of kept) if (entry.position >= messages.length) items.push(entry.item);
  return items;
}

function readKeptItems(value: unknown): KeptInputItem[] {
  if (!Array.isArray(value)) return [];
  return value.filter((entry): entry is KeptInputItem => isJsonObject(entry) && typeof entry.position === 'number' && isJsonObject(entry.item));
}

function encodeMessage(message: Message, index: number, store: boolean, warnings: Warning[], customCalls: ReadonlySet<string>): JsonObject[] {
  const param = `messages[${index}]`;
  switch (message.role) {
    case 'system':
      return [{ type: 'message', role: 'developer', content: textOfParts(message.content, '\n\n') }];
    case 'user':
      return [{ type: 'message', role: 'user', content: encodeInputParts(message.content, param, warnings) }];
    case 'assistant':
      return encodeAssistantParts(message.content, param, store, warnings);
    case 'tool':
      return message.content.map((result) => ({
        type: customCalls.has(result.toolCallId) ? 'custom_tool_call_output' : 'function_call_output',
        call_id: result.toolCallId,
        output: encodeToolOutput(result, param, warnings),
      }));
    default: {
      const unexpected: never = message;
      throw new Error(`Unhandled message ${JSON.stringify(unexpected)}`);
    }
  }
}

/** User content and function outputs: input_text, input_image, input_file. */
function encodeInputParts(parts: readonly UserPart[], param: string, warnings: Warning[]): JsonObject[] {
  const wire: JsonObject[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      wire.push({ type: 'input_text', text: part.text });
    } else if (part.mediaType.startsWith('image/')) {
      const detail = ownMetadata(part).detail;
      wire.push({ type: 'input_image', image_url: convertFileDataToUrl(part.mediaType, part.data), detail: typeof detail === 'string' ? detail : 'auto' });
    } else if (part.mediaType.startsWith('audio/')) {
      warnings.push({ type: 'dropped', feature: `${param} file ${part.mediaType}`, details: 'Responses input has no audio part' });
    } else if (part.data.type === 'base64') {
      wire.push({ type: 'input_file', filename: part.filename ?? 'file', file_data: toDataUrl(part.mediaType, part.data.base64) });
    } else {
      wire.push({ type: 'input_file', file_url: part.data.url, ...(part.filename !== undefined && { filename: part.filename }) });
    }
  }
  return wire;
}

/** Responses has no error flag on function outputs (docs/protocols.md §7.1): the text says so. */
function encodeToolOutput(result: ToolResultPart, param: string, warnings: Warning[]): string | JsonObject[] {
  if (result.content.every((part) => part.type === 'text')) {
    const text = textOfParts(result.content, '\n');
    return result.isError ? `Error: ${text}` : text;
  }
  const parts = encodeInputParts(result.content, param, warnings);
  return result.isError ? [{ type: 'input_text', text: 'Error:' }, ...parts] : parts;
}

/**
 * Text runs → message items (a new one where the Responses item id changes), tool calls →
 * function_call items, reasoning → reasoning items. Reasoning that OpenAI did not produce cannot be
 * replayed to it, and with `store: false` an item id alone refers to nothing: both are dropped.
 */
function encodeAssistantParts(parts: readonly AssistantPart[], param: string, store: boolean, warnings: Warning[]): JsonObject[] {
  const items: JsonObject[] = [];
  let message: { itemId: unknown; content: JsonObject[] } | undefined;
  for (const part of parts) {
    const own = ownMetadata(part);
    if (part.type !== 'text') message = undefined;
    switch (part.type) {
      case 'text':
        if (!message || message.itemId !== own.itemId) {
          message = { itemId: own.itemId, content: [] };
          items.push({ type: 'message', role: 'assistant', content: message.content, ...(typeof own.phase === 'string' && { phase: own.phase }) });
        }
        message.content.push({ type: 'output_text', text: part.text, annotations: [] });
        break;
      case 'tool-call': {
        const call: JsonObject =
          own.custom === true
            ? { type: 'custom_tool_call', call_id: part.toolCallId, name: part.toolName, input: readCustomToolInput(part.input) }
            : { type: 'function_call', call_id: part.toolCallId, name: part.toolName, arguments: part.input };
        if (typeof own.itemId === 'string') call.id = own.itemId;
        items.push(call);
        break;
      }
      case 'reasoning': {
        const encrypted = typeof own.encryptedContent === 'string' ? own.encryptedContent : undefined;
        if (encrypted === undefined && !(store && typeof own.itemId === 'string')) {
          warnings.push({ type: 'dropped', feature: `${param} reasoning`, details: 'only reasoning with OpenAI encrypted content can be sent back to a Responses upstream' });
          break;
        }
        items.push({
          type: 'reasoning',
          ...(typeof own.itemId === 'string' && { id: own.itemId }),
          summary: part.text ? [{ type: 'summary_text', text: part.text }] : [],
          ...(encrypted !== undefined && { encrypted_content: encrypted }),
        });
        break;
      }
      case 'file':
        warnings.push({ type: 'dropped', feature: `${param} file`, details: 'assistant files cannot be sent to OpenAI Responses' });
        break;
      default: {
        const unexpected: never = part;
        throw new Error(`Unhandled content part ${JSON.stringify(unexpected)}`);
      }
    }
  }
  return items;
}
