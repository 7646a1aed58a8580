import type { TextPart, UserPart } from '../../core/content-part.js';
import { invalidRequest } from '../../core/gateway-error.js';
import type { ProtocolMetadata } from '../../core/protocol.js';
import { convertUrlToFileData, parseDataUrl } from '../data-url.js';
import { readString, requireObject, requireString } from '../read-fields.js';

/** Content of Responses input messages and function outputs → core parts (docs/protocols.md §3.2). */

function requireContentList(content: unknown, param: string): unknown[] {
  if (!Array.isArray(content)) throw invalidRequest(param, `Invalid type for '${param}': expected a string or an array of content parts.`);
  return content;
}

function unsupportedType(param: string, type: string, allowed: string): never {
  throw invalidRequest(`${param}.type`, `Invalid value for '${param}.type': '${type}'. Supported values are: ${allowed}.`);
}

/** User content and function outputs: `input_text`, `input_image`, `input_file`. */
export function decodeInputParts(content: unknown, param: string): UserPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return requireContentList(content, param).map((raw, index) => decodeInputPart(raw, `${param}[${index}]`));
}

function decodeInputPart(raw: unknown, param: string): UserPart {
  const part = requireObject(raw, param);
  const type = requireString(part, 'type', `${param}.type`);
  switch (type) {
    case 'input_text':
      return { type: 'text', text: requireString(part, 'text', `${param}.text`) };
    case 'input_image': {
      const url = readString(part, 'image_url', `${param}.image_url`);
      if (!url) throw noFileIds(`${param}.image_url`, param, 'image_url');
      const { mediaType, data } = convertUrlToFileData(url, 'image/*');
      const detail = readString(part, 'detail', `${param}.detail`);
      return { type: 'file', mediaType, data, ...(detail && { protocolMetadata: { 'openai-responses': { detail } } }) };
    }
    case 'input_file': {
      const fileData = readString(part, 'file_data', `${param}.file_data`);
      const fileUrl = readString(part, 'file_url', `${param}.file_url`);
      const filename = readString(part, 'filename', `${param}.filename`);
      const named = filename ? { filename } : {};
      if (fileData) {
        // A data URL as the SDK docs show it; a bare base64 string is accepted as a PDF, like OpenAI.
        const inline = parseDataUrl(fileData);
        return { type: 'file', mediaType: inline?.mediaType ?? 'application/pdf', data: { type: 'base64', base64: inline?.base64 ?? fileData }, ...named };
      }
      if (fileUrl) return { type: 'file', mediaType: 'application/pdf', data: { type: 'url', url: fileUrl }, ...named };
      throw noFileIds(`${param}.file_data`, param, 'file_data or file_url');
    }
    default:
      return unsupportedType(param, type, "'input_text', 'input_image' and 'input_file'");
  }
}

function noFileIds(param: string, part: string, needed: string) {
  return invalidRequest(param, `'${part}' needs ${needed}; uploaded file ids are not available through the gateway.`);
}

/** System and developer content: text only, since the core system prompt is text. */
export function decodeInstructionParts(content: unknown, param: string): TextPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return requireContentList(content, param).map((raw, index) => {
    const partParam = `${param}[${index}]`;
    const part = requireObject(raw, partParam);
    const type = requireString(part, 'type', `${partParam}.type`);
    if (type !== 'input_text') unsupportedType(partParam, type, "'input_text' (system and developer messages carry text only)");
    return { type: 'text', text: requireString(part, 'text', `${partParam}.text`) };
  });
}

/**
 * Prior assistant output: `output_text` and `refusal` parts (and `input_text`, which easy messages
 * allow). `metadata` (item id, phase) goes on every part so an upstream of the same protocol gets it back.
 */
export function decodeAssistantParts(content: unknown, param: string, metadata: ProtocolMetadata | undefined): TextPart[] {
  const withMetadata = (text: string): TextPart => ({ type: 'text', text, ...(metadata && { protocolMetadata: metadata }) });
  if (typeof content === 'string') return [withMetadata(content)];
  return requireContentList(content, param).map((raw, index) => {
    const partParam = `${param}[${index}]`;
    const part = requireObject(raw, partParam);
    const type = requireString(part, 'type', `${partParam}.type`);
    if (type === 'output_text' || type === 'input_text') return withMetadata(requireString(part, 'text', `${partParam}.text`));
    if (type === 'refusal') return withMetadata(requireString(part, 'refusal', `${partParam}.refusal`));
    return unsupportedType(partParam, type, "'output_text', 'refusal' and 'input_text'");
  });
}
