import type { FilePart, TextPart, ToolResultPart } from '../../core/content-part.js';
import { invalidRequest } from '../../core/gateway-error.js';
import {
  isJsonObject,
  readBoolean,
  readString,
  requireNonEmptyString,
  requireObject,
  requireString,
  type JsonObject,
} from '../read-fields.js';
import { readAnthropicExtraFields, toAnthropicMetadata } from './block-metadata.js';

/**
 * Request content blocks that the core can hold: text, image, document and tool_result
 * (docs/protocols.md §2.2). Fields without a core equivalent ride in the part's protocolMetadata.
 */

export function decodeAnthropicTextBlock(block: JsonObject, param: string): TextPart {
  const text = requireString(block, 'text', `${param}.text`);
  return { type: 'text', text, ...toAnthropicMetadata(readAnthropicExtraFields(block, ['text'])) };
}

/** An image block, from base64 data or a URL. */
export function decodeAnthropicImageBlock(block: JsonObject, param: string): FilePart {
  const source = requireObject(block.source, `${param}.source`);
  const sourceType = requireString(source, 'type', `${param}.source.type`);
  const metadata = toAnthropicMetadata(readAnthropicExtraFields(block, ['source']));
  switch (sourceType) {
    case 'base64':
      return Object.assign(decodeBase64Source(source, param), metadata);
    case 'url':
      // The media type of a remote image is only known once fetched.
      return { type: 'file', mediaType: 'image/*', data: { type: 'url', url: requireNonEmptyString(source, 'url', `${param}.source.url`) }, ...metadata };
    default:
      throw unsupportedSource(param, sourceType, "'base64' and 'url'");
  }
}

/**
 * A document block (PDF as base64 or URL, plain text). A `content` source (a list of blocks) has no
 * file equivalent: undefined, and the caller keeps the block as it is.
 */
export function decodeAnthropicDocumentBlock(block: JsonObject, param: string): FilePart | undefined {
  const source = requireObject(block.source, `${param}.source`);
  const sourceType = requireString(source, 'type', `${param}.source.type`);
  const title = readString(block, 'title', `${param}.title`);
  const rest = Object.assign(toAnthropicMetadata(readAnthropicExtraFields(block, ['source', 'title'])), title !== undefined && { filename: title });
  switch (sourceType) {
    case 'base64':
      return Object.assign(decodeBase64Source(source, param), rest);
    case 'url':
      // Anthropic's URL documents are PDFs (URLPDFSource).
      return { type: 'file', mediaType: 'application/pdf', data: { type: 'url', url: requireNonEmptyString(source, 'url', `${param}.source.url`) }, ...rest };
    case 'text': {
      const text = requireString(source, 'data', `${param}.source.data`);
      const mediaType = readString(source, 'media_type', `${param}.source.media_type`) ?? 'text/plain';
      return { type: 'file', mediaType, data: { type: 'base64', base64: Buffer.from(text, 'utf8').toString('base64') }, ...rest };
    }
    case 'content':
      return undefined;
    default:
      throw unsupportedSource(param, sourceType, "'base64', 'url', 'text' and 'content'");
  }
}

function unsupportedSource(param: string, sourceType: string, supported: string) {
  if (sourceType === 'file') {
    return invalidRequest(`${param}.source`, `'${param}.source' of type 'file' is not supported: uploaded file ids are not available through the gateway.`);
  }
  return invalidRequest(`${param}.source.type`, `Invalid value for '${param}.source.type': '${sourceType}'. Supported values are: ${supported}.`);
}

/**
 * A tool_result block. Inner blocks the core cannot hold (search_result, tool_reference, ...) make
 * the original content ride along in metadata for an Anthropic upstream; a search result's text
 * is also kept as text so other upstreams still see what the tool returned.
 */
export function decodeAnthropicToolResultBlock(block: JsonObject, param: string, toolNames: ReadonlyMap<string, string>): ToolResultPart {
  const toolCallId = requireString(block, 'tool_use_id', `${param}.tool_use_id`);
  const isError = readBoolean(block, 'is_error', `${param}.is_error`);
  const extra = readAnthropicExtraFields(block, ['tool_use_id', 'content', 'is_error']);
  const content: Array<TextPart | FilePart> = [];
  const raw = block.content;
  if (typeof raw === 'string') content.push({ type: 'text', text: raw });
  else if (Array.isArray(raw)) {
    raw.forEach((rawInner, index) => {
      const innerParam = `${param}.content[${index}]`;
      const inner = requireObject(rawInner, innerParam);
      const innerType = requireString(inner, 'type', `${innerParam}.type`);
      const part =
        innerType === 'text'
          ? decodeAnthropicTextBlock(inner, innerParam)
          : innerType === 'image'
            ? decodeAnthropicImageBlock(inner, innerParam)
            : innerType === 'document'
              ? decodeAnthropicDocumentBlock(inner, innerParam)
              : undefined;
      if (part) content.push(part);
      else {
        extra.content = raw;
        const text = innerType === 'search_result' ? textOfSearchResult(inner) : '';
        if (text) content.push({ type: 'text', text });
      }
    });
  } else if (raw !== undefined && raw !== null) {
    throw invalidRequest(`${param}.content`, `Invalid type for '${param}.content': expected a string or an array of content blocks.`);
  }
  return {
    type: 'tool-result',
    toolCallId,
    // Anthropic results carry only the id; the name (Gemini needs it) comes from the call.
    toolName: toolNames.get(toolCallId) ?? '',
    content,
    ...(isError !== undefined && { isError }),
    ...toAnthropicMetadata(extra),
  };
}

function textOfSearchResult(block: JsonObject): string {
  if (!Array.isArray(block.content)) return '';
  return block.content
    .flatMap((entry) => (isJsonObject(entry) && typeof entry.text === 'string' ? [entry.text] : []))
    .join('\n');
}

/** A `{type: 'base64', media_type, data}` source, as images and documents share it. */
function decodeBase64Source(source: JsonObject, param: string): FilePart {
  return {
    type: 'file',
    mediaType: requireString(source, 'media_type', `${param}.source.media_type`),
    data: { type: 'base64', base64: requireString(source, 'data', `${param}.source.data`) },
  };
}
