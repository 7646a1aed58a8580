import type { AssistantPart } from '../../core/content-part.js';
import type { GenerateResponse } from '../../core/generate-response.js';
import { parseToolInputObject } from '../parse-tool-input.js';
import type { ResponseContext } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';
import { anthropicExtraFieldsOf, placeAnthropicUnmappedBlocks, readAnthropicUnmappedBlocks, ANTHROPIC_UNMAPPED_BLOCKS_KEY } from './block-metadata.js';
import { toAnthropicMessagesUsage } from './convert-usage.js';
import { toAnthropicStopReason } from './map-stop-reason.js';

export function anthropicMessageId(context: ResponseContext): string {
  return `msg_${context.requestId}`;
}

/** Core response → Anthropic `Message` (docs/protocols.md §2.4). Anthropic has one choice: the first. */
export function encodeAnthropicMessagesResponse(response: GenerateResponse, context: ResponseContext): JsonObject {
  const choice = response.choices.find((entry) => entry.index === 0) ?? response.choices[0];
  const finishReason = choice?.finishReason ?? { unified: 'other' };
  const metadata = response.protocolMetadata?.['anthropic-messages'] ?? {};
  // Server tool blocks kept by decodeResponse go back to their places.
  const content = placeAnthropicUnmappedBlocks((choice?.content ?? []).map(encodeResponseBlock), readAnthropicUnmappedBlocks(metadata[ANTHROPIC_UNMAPPED_BLOCKS_KEY]));
  return {
    id: anthropicMessageId(context),
    type: 'message',
    role: 'assistant',
    model: context.model,
    content,
    stop_reason: toAnthropicStopReason(finishReason),
    stop_sequence: finishReason.stopSequence ?? null,
    ...(metadata.stop_details !== undefined && { stop_details: metadata.stop_details }),
    ...(metadata.container !== undefined && { container: metadata.container }),
    usage: toAnthropicMessagesUsage(response.usage),
  };
}

/**
 * One content block. Reasoning from other vendors has no signature: it is shown with an empty one
 * (a client that sends it back has it dropped by encodeRequest). Anthropic messages hold no output
 * files: a generated image has nowhere to go. A text block without citations has no `citations`
 * key, as the API sends it: the Vercel AI SDK rejects `citations: null`.
 */
function encodeResponseBlock(part: AssistantPart): JsonObject[] {
  switch (part.type) {
    case 'text':
      return [{ type: 'text', text: part.text, ...anthropicExtraFieldsOf(part) }];
    case 'reasoning':
      if (part.redactedData !== undefined) return [{ type: 'redacted_thinking', data: part.redactedData }];
      return [{ type: 'thinking', thinking: part.text, signature: part.signature ?? '', ...anthropicExtraFieldsOf(part) }];
    case 'tool-call':
      return [{ type: 'tool_use', id: part.toolCallId, name: part.toolName, input: parseToolInputObject(part.input), ...anthropicExtraFieldsOf(part) }];
    case 'file':
      return [];
    default: {
      const unexpected: never = part;
      throw new Error(`Unhandled content part ${JSON.stringify(unexpected)}`);
    }
  }
}
