import type { AssistantPart, Message, TextPart } from '../../core/content-part.js';
import { invalidRequest } from '../../core/gateway-error.js';
import { readString, requireObject, requireString, type JsonObject } from '../read-fields.js';
import { readAnthropicExtraFields, toAnthropicMetadata, markAsAnthropic, type AnthropicUnmappedBlock } from './block-metadata.js';
import { decodeAnthropicDocumentBlock, decodeAnthropicImageBlock, decodeAnthropicTextBlock, decodeAnthropicToolResultBlock } from './decode-content.js';

type UserMessage = Extract<Message, { role: 'user' }>;
type ToolMessage = Extract<Message, { role: 'tool' }>;

export interface DecodedMessages {
  messages: Message[];
  /** Blocks the core cannot hold, with their place (see ANTHROPIC_UNMAPPED_BLOCKS_KEY). */
  unmappedBlocks: AnthropicUnmappedBlock[];
}

/** Top-level `system`: a string or text blocks (whose cache_control rides in metadata). */
export function decodeAnthropicSystem(value: unknown): TextPart[] {
  if (value === undefined || value === null) return [];
  return decodeTextContent(value, 'system', false);
}

/**
 * `messages` → core messages. A user turn's tool_result blocks become `tool` messages, in order: a
 * user message holding results and then text becomes a tool message followed by a user message.
 * A `system` message (the newest API accepts them mid-conversation; Claude Code sends one) stays a
 * system message, marked as Anthropic's so an Anthropic upstream gets it back in place.
 */
export function decodeAnthropicMessages(rawMessages: unknown[]): DecodedMessages {
  const messages: Message[] = [];
  const unmappedBlocks: AnthropicUnmappedBlock[] = [];
  // Tool results carry only the call id; the name comes from the assistant's tool_use.
  const toolNames = new Map<string, string>();

  // Blocks the core cannot hold belong to the core message decoded last.
  const keepUnmapped = (block: JsonObject) => {
    const message = messages[messages.length - 1];
    unmappedBlocks.push({ message: messages.length - 1, part: message.content.length, block });
  };

  rawMessages.forEach((raw, index) => {
    const param = `messages[${index}]`;
    const message = requireObject(raw, param);
    const role = requireString(message, 'role', `${param}.role`);
    const contentParam = `${param}.content`;
    if (message.content === undefined || message.content === null) {
      throw invalidRequest(contentParam, `Missing required parameter: '${contentParam}'.`);
    }
    switch (role) {
      case 'system':
        messages.push({ role: 'system', content: decodeTextContent(message.content, contentParam, true) });
        return;
      case 'user': {
        // The core message the next block joins: a run of tool results or a run of user content.
        let current: UserMessage | ToolMessage | undefined;
        const openUser = (): UserMessage => {
          if (current?.role === 'user') return current;
          const opened: UserMessage = { role: 'user', content: [] };
          messages.push(opened);
          current = opened;
          return opened;
        };
        const openTool = (): ToolMessage => {
          if (current?.role === 'tool') return current;
          const opened: ToolMessage = { role: 'tool', content: [] };
          messages.push(opened);
          current = opened;
          return opened;
        };
        for (const [blockIndex, block] of blocksOf(message.content, contentParam)) {
          const blockParam = `${contentParam}[${blockIndex}]`;
          const type = requireString(block, 'type', `${blockParam}.type`);
          if (type === 'tool_result') {
            openTool().content.push(decodeAnthropicToolResultBlock(block, blockParam, toolNames));
            continue;
          }
          const part =
            type === 'text'
              ? decodeAnthropicTextBlock(block, blockParam)
              : type === 'image'
                ? decodeAnthropicImageBlock(block, blockParam)
                : type === 'document'
                  ? decodeAnthropicDocumentBlock(block, blockParam)
                  : undefined;
          if (part) openUser().content.push(part);
          else {
            // A turn of such blocks only still needs a core message to hold their place.
            if (!current) openUser();
            keepUnmapped(block);
          }
        }
        return;
      }
      case 'assistant': {
        const content: AssistantPart[] = [];
        messages.push({ role: 'assistant', content });
        for (const [blockIndex, block] of blocksOf(message.content, contentParam)) {
          const part = decodeAnthropicAssistantBlock(block, `${contentParam}[${blockIndex}]`, toolNames);
          if (part) content.push(part);
          else keepUnmapped(block);
        }
        return;
      }
      default:
        throw invalidRequest(`${param}.role`, `Invalid value for '${param}.role': '${role}'. Supported values are: 'user', 'assistant' and 'system'.`);
    }
  });
  return { messages, unmappedBlocks };
}

/**
 * A block of an assistant turn (in a request, or in a response from upstream), or undefined for one
 * the core cannot hold (server_tool_use, web_search_tool_result, ...).
 */
export function decodeAnthropicAssistantBlock(block: JsonObject, param: string, toolNames: Map<string, string>): AssistantPart | undefined {
  const type = requireString(block, 'type', `${param}.type`);
  switch (type) {
    case 'text':
      return decodeAnthropicTextBlock(block, param);
    case 'thinking': {
      // Passed back unchanged to Anthropic only (docs/protocols.md §2.2): the signature is theirs.
      const signature = readString(block, 'signature', `${param}.signature`);
      return {
        type: 'reasoning',
        text: requireString(block, 'thinking', `${param}.thinking`),
        ...(signature !== undefined && { signature }),
        ...markAsAnthropic(readAnthropicExtraFields(block, ['thinking', 'signature'])),
      };
    }
    case 'redacted_thinking':
      return {
        type: 'reasoning',
        text: '',
        redactedData: requireString(block, 'data', `${param}.data`),
        ...markAsAnthropic(readAnthropicExtraFields(block, ['data'])),
      };
    case 'tool_use': {
      const id = requireString(block, 'id', `${param}.id`);
      const name = requireString(block, 'name', `${param}.name`);
      toolNames.set(id, name);
      return {
        type: 'tool-call',
        toolCallId: id,
        toolName: name,
        input: JSON.stringify(block.input ?? {}),
        ...toAnthropicMetadata(readAnthropicExtraFields(block, ['id', 'name', 'input'])),
      };
    }
    default:
      return undefined;
  }
}

/** A string or a list of text blocks. `markOrigin` tags every part as Anthropic's (system messages). */
function decodeTextContent(value: unknown, param: string, markOrigin: boolean): TextPart[] {
  return blocksOf(value, param).map(([index, block]) => {
    const blockParam = `${param}[${index}]`;
    const type = requireString(block, 'type', `${blockParam}.type`);
    if (type !== 'text') throw invalidRequest(`${blockParam}.type`, `Invalid value for '${blockParam}.type': '${type}'. Only text blocks are allowed here.`);
    const part = decodeAnthropicTextBlock(block, blockParam);
    return markOrigin && !part.protocolMetadata ? Object.assign(part, markAsAnthropic({})) : part;
  });
}

/** Content as [index, block] pairs: a string is one text block. */
function blocksOf(content: unknown, param: string): Array<[number, JsonObject]> {
  if (typeof content === 'string') return [[0, { type: 'text', text: content }]];
  if (!Array.isArray(content)) throw invalidRequest(param, `Invalid type for '${param}': expected a string or an array of content blocks.`);
  return content.map((block, index) => [index, requireObject(block, `${param}[${index}]`)]);
}
