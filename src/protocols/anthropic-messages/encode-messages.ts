import type { Message } from '../../core/content-part.js';
import type { GenerateRequest } from '../../core/generate-request.js';
import type { Warning } from '../../core/warning.js';
import type { JsonObject } from '../read-fields.js';
import { isFromAnthropic, type UnmappedBlock } from './block-metadata.js';
import { encodeAssistantPart, encodeFilePart, encodeTextPart, encodeToolResultPart } from './encode-content.js';

type WireRole = 'user' | 'assistant' | 'system';

interface Turn {
  role: WireRole;
  content: JsonObject[];
}

export interface EncodedMessages {
  system: JsonObject[];
  messages: Turn[];
}

/**
 * Core conversation → Anthropic `system` and `messages` (PROTOCOLS.md §2.1, §7.2):
 * - core `tool` messages become user turns of tool_result blocks;
 * - consecutive turns of one role are merged (older deployments and proxies reject them), with
 *   tool results first in a user turn, as the API demands;
 * - a system message from another protocol is hoisted into `system` (Anthropic has no such message
 *   in older APIs); one that came from Anthropic stays where it was;
 * - blocks the core could not hold (kept by decodeRequest) go back to their places.
 */
export function encodeAnthropicMessages(request: GenerateRequest, unmapped: readonly UnmappedBlock[], warnings: Warning[]): EncodedMessages {
  const system = request.system.flatMap(encodeTextPart);
  const turns: Turn[] = [];

  request.messages.forEach((message, index) => {
    const feature = `messages[${index}]`;
    const extra = unmapped.filter((entry) => entry.message === index);
    const placeUnmapped = (encodedParts: JsonObject[][]): JsonObject[] => {
      const blocks: JsonObject[] = [];
      encodedParts.forEach((partBlocks, position) => {
        for (const entry of extra) if (entry.part === position) blocks.push(entry.block);
        blocks.push(...partBlocks);
      });
      for (const entry of extra) if (entry.part >= encodedParts.length) blocks.push(entry.block);
      return blocks;
    };
    const role = wireRole(message);
    switch (message.role) {
      case 'system': {
        const blocks = message.content.flatMap(encodeTextPart);
        if (message.content.some(isFromAnthropic)) {
          appendTurn(turns, 'system', blocks, warnings);
        } else {
          system.push(...blocks);
          warnings.push({ type: 'changed', feature, details: 'a system message inside the conversation was moved to the top-level system prompt' });
        }
        return;
      }
      case 'user':
        appendTurn(turns, role, placeUnmapped(message.content.map((part) => (part.type === 'text' ? encodeTextPart(part) : encodeFilePart(part, feature, warnings)))), warnings);
        return;
      case 'assistant':
        appendTurn(turns, role, placeUnmapped(message.content.map((part) => encodeAssistantPart(part, feature, warnings))), warnings);
        return;
      case 'tool':
        appendTurn(turns, role, placeUnmapped(message.content.map((part) => [encodeToolResultPart(part, feature, warnings)])), warnings);
        return;
      default: {
        const unexpected: never = message;
        throw new Error(`Unhandled message ${JSON.stringify(unexpected)}`);
      }
    }
  });
  return { system, messages: turns };
}

function wireRole(message: Message): WireRole {
  return message.role === 'assistant' ? 'assistant' : message.role === 'system' ? 'system' : 'user';
}

/** Adds blocks as a turn, merged into the previous turn of the same role. Empty turns are skipped. */
function appendTurn(turns: Turn[], role: WireRole, blocks: JsonObject[], warnings: Warning[]): void {
  if (blocks.length === 0) return;
  const last = turns[turns.length - 1];
  if (!last || last.role !== role) {
    turns.push({ role, content: blocks });
    return;
  }
  const merged = [...last.content, ...blocks];
  const results = merged.filter((block) => block.type === 'tool_result');
  const others = merged.filter((block) => block.type !== 'tool_result');
  const reordered = [...results, ...others];
  if (reordered.some((block, position) => block !== merged[position])) {
    warnings.push({ type: 'changed', feature: `messages[${turns.length - 1}]`, details: 'tool results were moved before the other content of the user turn' });
  }
  last.content = reordered;
}
