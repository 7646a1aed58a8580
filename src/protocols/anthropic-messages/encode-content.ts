import type { AssistantPart, FilePart, TextPart, ToolResultPart } from '../../core/content-part.js';
import type { Warning } from '../../core/warning.js';
import { parseToolInputObject } from '../parse-tool-input.js';
import type { JsonObject } from '../read-fields.js';
import { anthropicExtraFieldsOf, isFromAnthropic } from './block-metadata.js';

/**
 * Core parts → Anthropic request blocks. Each returns zero or one block: zero for what Anthropic
 * cannot take (with a warning) and for empty text, which the API rejects ("text content blocks
 * must be non-empty") while it carries no meaning.
 */

export function encodeAnthropicTextBlock(part: TextPart): JsonObject[] {
  if (part.text === '') return [];
  return [{ type: 'text', text: part.text, ...anthropicExtraFieldsOf(part) }];
}

/** Images as image blocks; PDFs and plain text as document blocks (docs/protocols.md §2.2). */
export function encodeAnthropicFileBlock(part: FilePart, feature: string, warnings: Warning[]): JsonObject[] {
  const extra = anthropicExtraFieldsOf(part);
  if (part.mediaType.startsWith('image/')) {
    const source = part.data.type === 'url' ? { type: 'url', url: part.data.url } : { type: 'base64', media_type: part.mediaType, data: part.data.base64 };
    return [{ type: 'image', source, ...extra }];
  }
  const title = part.filename !== undefined ? { title: part.filename } : {};
  if (part.mediaType === 'application/pdf') {
    const source = part.data.type === 'url' ? { type: 'url', url: part.data.url } : { type: 'base64', media_type: 'application/pdf', data: part.data.base64 };
    return [{ type: 'document', source, ...title, ...extra }];
  }
  if (part.mediaType === 'text/plain' && part.data.type === 'base64') {
    const data = Buffer.from(part.data.base64, 'base64').toString('utf8');
    return [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data }, ...title, ...extra }];
  }
  warnings.push({ type: 'dropped', feature: `${feature} file ${part.mediaType}`, details: 'Anthropic takes images, PDFs and plain text documents only' });
  return [];
}

/**
 * An assistant part. Reasoning goes back only as Anthropic produced it: a thinking block with its
 * signature, or a redacted block. Reasoning from other vendors (or unsigned) cannot be verified by
 * Anthropic and would be rejected, so it is dropped, with one warning per message.
 */
export function encodeAnthropicAssistantBlock(part: AssistantPart, feature: string, warnings: Warning[]): JsonObject[] {
  switch (part.type) {
    case 'text':
      return encodeAnthropicTextBlock(part);
    case 'reasoning':
      if (part.redactedData !== undefined) return [{ type: 'redacted_thinking', data: part.redactedData }];
      if (isFromAnthropic(part) && part.signature) {
        return [{ type: 'thinking', thinking: part.text, signature: part.signature, ...anthropicExtraFieldsOf(part) }];
      }
      if (!warnings.some((warning) => warning.feature === `${feature} reasoning`)) {
        warnings.push({ type: 'dropped', feature: `${feature} reasoning`, details: 'only signed Anthropic thinking can be sent back to Anthropic' });
      }
      return [];
    case 'tool-call':
      return [{ type: 'tool_use', id: part.toolCallId, name: part.toolName, input: parseToolInputObject(part.input), ...anthropicExtraFieldsOf(part) }];
    case 'file':
      warnings.push({ type: 'dropped', feature: `${feature} file`, details: 'Anthropic assistant turns hold no files' });
      return [];
    default: {
      const unexpected: never = part;
      throw new Error(`Unhandled assistant part ${JSON.stringify(unexpected)}`);
    }
  }
}

/**
 * A tool result. One plain text becomes a string (the common form); an original content list kept
 * in metadata (search results, tool references) replaces the core content for Anthropic.
 */
export function encodeAnthropicToolResultBlock(part: ToolResultPart, feature: string, warnings: Warning[]): JsonObject {
  const extra = anthropicExtraFieldsOf(part);
  const blocks = part.content.flatMap((inner) => (inner.type === 'text' ? encodeAnthropicTextBlock(inner) : encodeAnthropicFileBlock(inner, feature, warnings)));
  const [only] = part.content;
  const plainText = part.content.length === 1 && only.type === 'text' && only.text !== '' && !only.protocolMetadata;
  return {
    type: 'tool_result',
    tool_use_id: part.toolCallId,
    ...(blocks.length > 0 && { content: plainText ? only.text : blocks }),
    ...(part.isError !== undefined && { is_error: part.isError }),
    ...extra,
  };
}
