import type { GenerateRequest } from '../../core/generate-request.js';
import type { Warning } from '../../core/warning.js';
import type { JsonObject } from '../read-fields.js';
import { isFromAnthropic, placeAnthropicUnmappedBlocks, type AnthropicUnmappedBlock } from './block-metadata.js';
import { encodeAnthropicAssistantBlock, encodeAnthropicFileBlock, encodeAnthropicTextBlock, encodeAnthropicToolResultBlock } from './encode-content.js';

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
 * Core conversation → Anthropic `system` and `messages` (docs/protocols.md §2.1, §7.2):
 * - core `tool` messages become user turns of tool_result blocks;
 * - consecutive turns of one role are merged (older deployments and proxies reject them), with
 *   tool results first in a user turn, as the API demands;
 * - a system message from another protocol is hoisted into `system` (Anthropic has no such message
 *   in older APIs); one that came from Anthropic stays where it was;
 * - blocks the core could not hold (kept by decodeRequest) go back to their places.
 */
export function encodeAnthropicMessages(request: GenerateRequest, unmapped: readonly AnthropicUnmappedBlock[], warnings: Warning[]): EncodedMessages {
  const system = request.system.flatMap(encodeAnthropicTextBlock);
  const turns: Turn[] = [];

  request.messages.forEach((message, index) => {
    const feature = `messages[${index}]`;
    const kept = unmapped.filter((entry) => entry.message === index);
    const placeUnmapped = (encodedParts: JsonObject[][]) => placeAnthropicUnmappedBlocks(encodedParts, kept);
    switch (message.role) {
      case 'system': {
        const blocks = message.content.flatMap(encodeAnthropicTextBlock);
        if (message.content.some(isFromAnthropic)) {
          appendTurn(turns, 'system', blocks, feature, warnings);
        } else {
          system.push(...blocks);
          warnings.push({ type: 'changed', feature, details: 'a system message inside the conversation was moved to the top-level system prompt' });
        }
        return;
      }
      case 'user': {
        const encoded = message.content.map((part) => (part.type === 'text' ? encodeAnthropicTextBlock(part) : encodeAnthropicFileBlock(part, feature, warnings)));
        appendTurn(turns, 'user', placeUnmapped(encoded), feature, warnings);
        return;
      }
      case 'assistant':
        appendTurn(turns, 'assistant', placeUnmapped(message.content.map((part) => encodeAnthropicAssistantBlock(part, feature, warnings))), feature, warnings);
        return;
      case 'tool':
        appendTurn(turns, 'user', placeUnmapped(message.content.map((part) => [encodeAnthropicToolResultBlock(part, feature, warnings)])), feature, warnings);
        return;
      default: {
        const unexpected: never = message;
        throw new Error(`Unhandled message ${JSON.stringify(unexpected)}`);
      }
    }
  });
  return { system, messages: turns };
}

/** Adds blocks as a turn, merged into the previous turn of the same role. Empty turns are skipped. */
function appendTurn(turns: Turn[], role: WireRole, blocks: JsonObject[], feature: string, warnings: Warning[]): void {
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
    warnings.push({ type: 'changed', feature, details: 'tool results were moved before the other content of the user turn' });
  }
  last.content = reordered;
}
