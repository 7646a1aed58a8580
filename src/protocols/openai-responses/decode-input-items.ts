import type { AssistantPart, Message, TextPart } from '../../core/content-part.js';
import { invalidRequest } from '../../core/gateway-error.js';
import { readArray, readString, requireNonEmptyString, requireObject, requireString, type JsonObject } from '../read-fields.js';
import { decodeReasoningItem } from './convert-reasoning-item.js';
import { decodeAssistantParts, decodeInputParts, decodeInstructionParts } from './decode-input-content.js';

/**
 * An input item the core cannot represent (custom tool calls, built-in tool calls and their
 * outputs, computer/shell/MCP items, compaction...). It is kept, with the number of core messages
 * before it, for an upstream of the same protocol; other upstreams warn about it (foreign-extensions.ts).
 */
export interface KeptInputItem {
  position: number;
  item: JsonObject;
}

export interface DecodedInput {
  system: TextPart[];
  messages: Message[];
  keptItems: KeptInputItem[];
  /** Tools declared by `additional_tools` items (Codex on the models of its own catalog). */
  additionalTools: unknown[];
  /** The first item that refers to a stored item (`item_reference`), if any. */
  storedItemReference?: string;
}

/**
 * `instructions` + `input` → core system and messages (docs/protocols.md §3.2). `instructions` and the
 * system/developer messages before any other item become the core system prompt; later ones stay
 * in place as system messages. Assistant-side items in a row (reasoning, message, function calls)
 * form one assistant turn, and function outputs in a row one tool turn, as the core expects.
 */
export function decodeOpenAIResponsesInput(input: unknown, instructions: string | undefined): DecodedInput {
  const system: TextPart[] = [];
  const messages: Message[] = [];
  const keptItems: KeptInputItem[] = [];
  let storedItemReference: string | undefined;
  const additionalTools: unknown[] = [];
  // The marker lets the response echo `instructions` as the client sent it.
  if (instructions) system.push({ type: 'text', text: instructions, protocolMetadata: { 'openai-responses': { source: 'instructions' } } });
  if (input === undefined) return { system, messages, keptItems, additionalTools };
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: [{ type: 'text', text: input }] });
    return { system, messages, keptItems, additionalTools };
  }
  if (!Array.isArray(input)) throw invalidRequest('input', "Invalid type for 'input': expected a string or an array of input items.");

  const toolNames = new Map<string, string>();
  let leading = true;
  // After a kept item the next item starts a new turn, so the kept item keeps its place.
  let barrier = false;
  const last = (): Message | undefined => (barrier ? undefined : messages[messages.length - 1]);
  const appendAssistant = (parts: AssistantPart[]) => {
    const previous = last();
    if (previous?.role === 'assistant') previous.content.push(...parts);
    else messages.push({ role: 'assistant', content: parts });
  };

  input.forEach((raw, index) => {
    const param = `input[${index}]`;
    const item = requireObject(raw, param);
    const type = readString(item, 'type', `${param}.type`) ?? 'message';
    const wasLeading = leading;
    leading = false;
    switch (type) {
      case 'message': {
        const role = requireString(item, 'role', `${param}.role`);
        if (role === 'system' || role === 'developer') {
          const parts = decodeInstructionParts(item.content, `${param}.content`);
          leading = wasLeading;
          if (wasLeading) system.push(...parts);
          else messages.push({ role: 'system', content: parts });
        } else if (role === 'user') {
          messages.push({ role: 'user', content: decodeInputParts(item.content, `${param}.content`) });
        } else if (role === 'assistant') {
          const metadata: JsonObject = {};
          if (typeof item.id === 'string' && item.id) metadata.itemId = item.id;
          if (typeof item.phase === 'string') metadata.phase = item.phase;
          const own = Object.keys(metadata).length > 0 ? { 'openai-responses': metadata } : undefined;
          appendAssistant(decodeAssistantParts(item.content, `${param}.content`, own));
        } else {
          throw invalidRequest(`${param}.role`, `Invalid value for '${param}.role': '${role}'. Supported values are: 'user', 'assistant', 'system' and 'developer'.`);
        }
        break;
      }
      case 'function_call':
      case 'custom_tool_call': {
        const callId = requireNonEmptyString(item, 'call_id', `${param}.call_id`);
        const name = requireNonEmptyString(item, 'name', `${param}.name`);
        const custom = type === 'custom_tool_call';
        // A custom tool's text travels as the `{input}` arguments of a function (convert-custom-tool.ts).
        const input = custom ? JSON.stringify({ input: readString(item, 'input', `${param}.input`) ?? '' }) : (readString(item, 'arguments', `${param}.arguments`) ?? '');
        const itemId = readString(item, 'id', `${param}.id`);
        const metadata: JsonObject = {};
        if (itemId) metadata.itemId = itemId;
        if (custom) metadata.custom = true;
        toolNames.set(callId, name);
        appendAssistant([
          { type: 'tool-call', toolCallId: callId, toolName: name, input, ...(Object.keys(metadata).length > 0 && { protocolMetadata: { 'openai-responses': metadata } }) },
        ]);
        break;
      }
      case 'additional_tools':
        // Declarations, not conversation: they join the request's tools (decode-request.ts).
        additionalTools.push(...(readArray(item, 'tools', `${param}.tools`) ?? []));
        leading = wasLeading;
        return;
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const callId = requireNonEmptyString(item, 'call_id', `${param}.call_id`);
        if (item.output === undefined || item.output === null) throw invalidRequest(`${param}.output`, `Missing required parameter: '${param}.output'.`);
        const result = { type: 'tool-result' as const, toolCallId: callId, toolName: toolNames.get(callId) ?? '', content: decodeInputParts(item.output, `${param}.output`) };
        const previous = last();
        if (previous?.role === 'tool') previous.content.push(result);
        else messages.push({ role: 'tool', content: [result] });
        break;
      }
      case 'reasoning':
        // Read for their types only (a 400 names the field); the conversion itself is lenient.
        readArray(item, 'summary', `${param}.summary`);
        readString(item, 'encrypted_content', `${param}.encrypted_content`);
        appendAssistant([decodeReasoningItem(item)]);
        break;
      case 'item_reference':
        // Only the vendor that stored the item can resolve it: kept for a Responses upstream.
        storedItemReference ??= param;
        keptItems.push({ position: messages.length, item });
        barrier = true;
        return;
      default:
        keptItems.push({ position: messages.length, item });
        barrier = true;
        return;
    }
    barrier = false;
  });
  return { system, messages, keptItems, additionalTools, ...(storedItemReference && { storedItemReference }) };
}
