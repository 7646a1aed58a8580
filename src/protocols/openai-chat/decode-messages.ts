import type { AssistantPart, Message, TextPart, ToolResultPart, UserPart } from '../../core/content-part.js';
import { invalidRequest } from '../../core/gateway-error.js';
import type { Warning } from '../../core/warning.js';
import { convertUrlToFileData, parseDataUrl } from '../data-url.js';
import { readArray, readEnum, readString, requireNonEmptyString, requireObject, requireString } from '../read-fields.js';

/**
 * OpenAI `messages` → core system parts and messages. Leading system/developer messages become the
 * system prompt; later ones stay in place. Consecutive tool messages (one per call in OpenAI) are
 * one core tool turn.
 */
export function decodeMessages(rawMessages: unknown[], warnings: Warning[]): { system: TextPart[]; messages: Message[] } {
  const system: TextPart[] = [];
  const messages: Message[] = [];
  // Tool results need the tool's name (Gemini), which OpenAI only gives in the assistant's call.
  const toolNames = new Map<string, string>();

  rawMessages.forEach((raw, index) => {
    const param = `messages[${index}]`;
    const message = requireObject(raw, param);
    const role = requireString(message, 'role', `${param}.role`);
    if (message.name !== undefined && message.name !== null) {
      warnings.push({ type: 'dropped', feature: `${param}.name`, details: 'participant names are not forwarded' });
    }
    switch (role) {
      case 'system':
      case 'developer': {
        const parts = decodeTextContent(message.content, `${param}.content`);
        if (messages.length === 0) system.push(...parts);
        else messages.push({ role: 'system', content: parts });
        return;
      }
      case 'user':
        messages.push({ role: 'user', content: decodeUserContent(message.content, `${param}.content`) });
        return;
      case 'assistant': {
        const content: AssistantPart[] = [];
        const reasoning = readString(message, 'reasoning_content', `${param}.reasoning_content`) ?? readString(message, 'reasoning', `${param}.reasoning`);
        if (reasoning) content.push({ type: 'reasoning', text: reasoning });
        if (message.content !== undefined && message.content !== null) {
          content.push(...decodeTextContent(message.content, `${param}.content`, true));
        }
        const refusal = readString(message, 'refusal', `${param}.refusal`);
        if (refusal) content.push({ type: 'text', text: refusal });
        const toolCalls = readArray(message, 'tool_calls', `${param}.tool_calls`) ?? [];
        toolCalls.forEach((rawCall, callIndex) => {
          const callParam = `${param}.tool_calls[${callIndex}]`;
          const call = requireObject(rawCall, callParam);
          const id = requireString(call, 'id', `${callParam}.id`);
          const fn = requireObject(call.function, `${callParam}.function`);
          const name = requireString(fn, 'name', `${callParam}.function.name`);
          const args = readString(fn, 'arguments', `${callParam}.function.arguments`) ?? '';
          toolNames.set(id, name);
          content.push({ type: 'tool-call', toolCallId: id, toolName: name, input: args });
        });
        if (content.length === 0 && message.content === undefined) {
          throw invalidRequest(`${param}.content`, `Missing required parameter: '${param}.content'.`);
        }
        messages.push({ role: 'assistant', content });
        return;
      }
      case 'tool': {
        const toolCallId = requireString(message, 'tool_call_id', `${param}.tool_call_id`);
        const result: ToolResultPart = {
          type: 'tool-result',
          toolCallId,
          toolName: toolNames.get(toolCallId) ?? '',
          content: decodeUserContent(message.content, `${param}.content`),
        };
        const previous = messages[messages.length - 1];
        // One OpenAI tool message per call; the core keeps a turn's results together.
        if (previous?.role === 'tool') previous.content.push(result);
        else messages.push({ role: 'tool', content: [result] });
        return;
      }
      default:
        throw invalidRequest(
          `${param}.role`,
          `Invalid value for '${param}.role': '${role}'. Supported values are: 'system', 'developer', 'user', 'assistant' and 'tool'.`,
        );
    }
  });
  return { system, messages };
}

function decodeTextContent(content: unknown, param: string, allowRefusal = false): TextPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalidRequest(param, `Invalid type for '${param}': expected a string or an array of content parts.`);
  const parts: TextPart[] = [];
  content.forEach((rawPart, index) => {
    const part = requireObject(rawPart, `${param}[${index}]`);
    const type = requireString(part, 'type', `${param}[${index}].type`);
    if (type === 'text') parts.push({ type: 'text', text: requireString(part, 'text', `${param}[${index}].text`) });
    else if (type === 'refusal' && allowRefusal) parts.push({ type: 'text', text: requireString(part, 'refusal', `${param}[${index}].refusal`) });
    else throw invalidRequest(`${param}[${index}].type`, `Invalid value for '${param}[${index}].type': '${type}'. Only text parts are allowed here.`);
  });
  return parts;
}

function decodeUserContent(content: unknown, param: string): UserPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalidRequest(param, `Invalid type for '${param}': expected a string or an array of content parts.`);
  return content.map((rawPart, index): UserPart => {
    const partParam = `${param}[${index}]`;
    const part = requireObject(rawPart, partParam);
    const type = requireString(part, 'type', `${partParam}.type`);
    switch (type) {
      case 'text':
        return { type: 'text', text: requireString(part, 'text', `${partParam}.text`) };
      case 'image_url': {
        const image = requireObject(part.image_url, `${partParam}.image_url`);
        const url = requireNonEmptyString(image, 'url', `${partParam}.image_url.url`);
        const { mediaType, data } = convertUrlToFileData(url, 'image/*');
        const detail = readString(image, 'detail', `${partParam}.image_url.detail`);
        return { type: 'file', mediaType, data, ...(detail && { protocolMetadata: { 'openai-chat': { detail } } }) };
      }
      case 'input_audio': {
        const audio = requireObject(part.input_audio, `${partParam}.input_audio`);
        const base64 = requireString(audio, 'data', `${partParam}.input_audio.data`);
        const format = readEnum(audio, 'format', ['wav', 'mp3'], `${partParam}.input_audio.format`) ?? 'wav';
        return { type: 'file', mediaType: format === 'mp3' ? 'audio/mpeg' : 'audio/wav', data: { type: 'base64', base64 } };
      }
      case 'file': {
        const file = requireObject(part.file, `${partParam}.file`);
        const fileData = readString(file, 'file_data', `${partParam}.file.file_data`);
        const filename = readString(file, 'filename', `${partParam}.file.filename`);
        if (!fileData) {
          throw invalidRequest(`${partParam}.file.file_data`, `'${partParam}.file' needs 'file_data' (a base64 data URL); uploaded file ids are not available through the gateway.`);
        }
        const inline = parseDataUrl(fileData);
        return {
          type: 'file',
          mediaType: inline?.mediaType ?? 'application/pdf',
          data: { type: 'base64', base64: inline?.base64 ?? fileData },
          ...(filename && { filename }),
        };
      }
      default:
        throw invalidRequest(
          `${partParam}.type`,
          `Invalid value for '${partParam}.type': '${type}'. Supported values are: 'text', 'image_url', 'input_audio' and 'file'.`,
        );
    }
  });
}

