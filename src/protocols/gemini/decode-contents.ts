import type { AssistantPart, FilePart, Message, TextPart, ToolResultPart, UserPart } from '../../core/content-part.js';
import { invalidRequest } from '../../core/gateway-error.js';
import type { Warning } from '../../core/warning.js';
import { readArray, readBoolean, readEnum, readObject, readString, requireArray, requireNonEmptyString, requireString, type JsonObject } from '../read-fields.js';
import { readCamelCaseFields, type CamelCaseFields } from './camel-case-fields.js';
import { decodeGeminiModelPart, decodeGeminiOpaquePart, geminiOpaqueKeyOf, geminiPartFieldsOf, withGeminiMetadata } from './decode-part.js';

interface OpenCall {
  id: string;
  name: string;
  answered: boolean;
}

/**
 * Gemini `contents` → core messages. A `user` turn may mix function responses with text and
 * media: the responses become a `tool` message and the rest a `user` message, in their order.
 * Function calls without an id get `call_<turn>_<index>`; a response without an id answers the
 * first unanswered call of the same name in the preceding model turn (docs/protocols.md §7.1).
 */
export function decodeGeminiContents(rawContents: unknown[], warnings: Warning[]): Message[] {
  const messages: Message[] = [];
  let openCalls: OpenCall[] = [];

  rawContents.forEach((rawContent, turn) => {
    const content = readCamelCaseFields(rawContent, `contents[${turn}]`);
    // `function` is the role of older examples for function responses (docs/protocols.md §4.2).
    const role = readEnum(content.fields, 'role', ['user', 'model', 'function'], content.param('role')) ?? 'user';
    const rawParts = requireArray(content.fields, 'parts', content.param('parts'));
    if (rawParts.length === 0) throw invalidRequest(content.param('parts'), `Invalid '${content.param('parts')}': a turn needs at least one part.`);

    if (role === 'model') {
      const parts: AssistantPart[] = [];
      openCalls = [];
      rawParts.forEach((rawPart, index) => {
        const partParam = `${content.param('parts')}[${index}]`;
        const part = readCamelCaseFields(rawPart, partParam);
        if (part.fields.functionResponse !== undefined) {
          throw invalidRequest(part.param('functionResponse'), `'${part.param('functionResponse')}' belongs in a 'user' turn.`);
        }
        validateModelPart(part, partParam, warnings);
        const decoded = decodeGeminiModelPart(part.fields, (wireId) => wireId ?? `call_${turn}_${index}`);
        if (!decoded) throw invalidRequest(partParam, `Invalid '${partParam}': the part holds no data.`);
        if (decoded.type === 'tool-call') openCalls.push({ id: decoded.toolCallId, name: decoded.toolName, answered: false });
        parts.push(decoded);
      });
      messages.push({ role: 'assistant', content: parts });
      return;
    }

    rawParts.forEach((rawPart, index) => {
      const partParam = `${content.param('parts')}[${index}]`;
      const part = readCamelCaseFields(rawPart, partParam);
      if (part.fields.functionCall !== undefined) {
        throw invalidRequest(part.param('functionCall'), `'${part.param('functionCall')}' belongs in a 'model' turn.`);
      }
      if (part.fields.functionResponse !== undefined) {
        const result = decodeFunctionResponse(part, openCalls, `call_${turn}_${index}`, warnings);
        const previous = messages[messages.length - 1];
        if (previous?.role === 'tool') previous.content.push(result);
        else messages.push({ role: 'tool', content: [result] });
        return;
      }
      const userPart = decodeUserPart(part, partParam, warnings);
      const previous = messages[messages.length - 1];
      if (previous?.role === 'user') previous.content.push(userPart);
      else messages.push({ role: 'user', content: [userPart] });
    });
  });
  return messages;
}

/** Checks the types of a model part's fields, so the lenient shared decoder only sees valid data. */
function validateModelPart(part: CamelCaseFields, partParam: string, warnings: Warning[]): void {
  readString(part.fields, 'thoughtSignature', part.param('thoughtSignature'));
  readBoolean(part.fields, 'thought', part.param('thought'));
  if (part.fields.text !== undefined) requireString(part.fields, 'text', part.param('text'));
  else if (part.fields.inlineData !== undefined || part.fields.fileData !== undefined) decodeMedia(part);
  else if (part.fields.functionCall !== undefined) {
    const call = readCamelCaseFields(part.fields.functionCall, part.param('functionCall'));
    requireNonEmptyString(call.fields, 'name', call.param('name'));
    readObject(call.fields, 'args', call.param('args'));
    readString(call.fields, 'id', call.param('id'));
  } else warnOpaque(part, partParam, warnings);
}

/** A part the core has no type for (`executableCode`, ...): Gemini gets it back, others read text. */
function warnOpaque(part: CamelCaseFields, partParam: string, warnings: Warning[]): string {
  const key = geminiOpaqueKeyOf(part.fields);
  if (key === undefined) throw invalidRequest(partParam, `Invalid '${partParam}': the part holds no data.`);
  warnings.push({ type: 'changed', feature: part.param(key), details: 'sent as text to upstreams of other protocols' });
  return key;
}

function decodeUserPart(part: CamelCaseFields, partParam: string, warnings: Warning[]): UserPart {
  if (part.fields.text !== undefined) {
    const text = requireString(part.fields, 'text', part.param('text'));
    return { type: 'text', text, ...withGeminiMetadata({ partFields: geminiPartFieldsOf(part.fields) }) };
  }
  if (part.fields.inlineData !== undefined || part.fields.fileData !== undefined) return decodeMedia(part);
  return decodeGeminiOpaquePart(part.fields, warnOpaque(part, partParam, warnings));
}

/** `inlineData` → base64 file, `fileData` → URL file, validating what Gemini requires. */
function decodeMedia(part: CamelCaseFields): FilePart {
  const metadata = withGeminiMetadata({
    thoughtSignature: readString(part.fields, 'thoughtSignature', part.param('thoughtSignature')),
    partFields: geminiPartFieldsOf(part.fields),
  });
  if (part.fields.inlineData !== undefined) {
    const inline = readCamelCaseFields(part.fields.inlineData, part.param('inlineData'));
    const filename = readString(inline.fields, 'displayName', inline.param('displayName'));
    return {
      type: 'file',
      mediaType: requireNonEmptyString(inline.fields, 'mimeType', inline.param('mimeType')),
      data: { type: 'base64', base64: requireString(inline.fields, 'data', inline.param('data')) },
      ...(filename !== undefined && { filename }),
      ...metadata,
    };
  }
  const file = readCamelCaseFields(part.fields.fileData, part.param('fileData'));
  const filename = readString(file.fields, 'displayName', file.param('displayName'));
  return {
    type: 'file',
    mediaType: readString(file.fields, 'mimeType', file.param('mimeType')) ?? 'application/octet-stream',
    data: { type: 'url', url: requireNonEmptyString(file.fields, 'fileUri', file.param('fileUri')) },
    ...(filename !== undefined && { filename }),
    ...metadata,
  };
}

const FUNCTION_RESPONSE_FIELDS = new Set(['id', 'name', 'response', 'parts']);

function decodeFunctionResponse(part: CamelCaseFields, openCalls: OpenCall[], fallbackId: string, warnings: Warning[]): ToolResultPart {
  const functionResponse = readCamelCaseFields(part.fields.functionResponse, part.param('functionResponse'));
  const fields = functionResponse.fields;
  const wireId = readString(fields, 'id', functionResponse.param('id')) || undefined;
  const wireName = readString(fields, 'name', functionResponse.param('name')) || undefined;
  const call = wireId !== undefined ? openCalls.find((open) => open.id === wireId) : openCalls.find((open) => !open.answered && open.name === wireName);
  if (call) call.answered = true;
  const toolName = wireName ?? call?.name;
  if (toolName === undefined) throw invalidRequest(functionResponse.param('name'), `Missing required parameter: '${functionResponse.param('name')}'.`);

  const response = readObject(fields, 'response', functionResponse.param('response')) ?? {};
  const { text, isError, plain } = readFunctionResponseText(response);
  const content: Array<TextPart | FilePart> = [{ type: 'text', text }];
  (readArray(fields, 'parts', functionResponse.param('parts')) ?? []).forEach((rawMedia, index) => {
    content.push(decodeMedia(readCamelCaseFields(rawMedia, `${functionResponse.param('parts')}[${index}]`)));
  });
  for (const key of Object.keys(fields)) {
    if (!FUNCTION_RESPONSE_FIELDS.has(key)) warnings.push({ type: 'dropped', feature: functionResponse.param(key), details: 'not supported by the gateway' });
  }
  return {
    type: 'tool-result',
    toolCallId: wireId ?? call?.id ?? fallbackId,
    toolName,
    content,
    ...(isError && { isError }),
    ...withGeminiMetadata({ functionResponseId: wireId, response: plain ? undefined : response }),
  };
}

/**
 * `response.output` is the result and `response.error` a failure (docs/protocols.md §4.2); any other
 * object is the result as a whole. `plain` says whether `{output|error: text}` says it all.
 */
function readFunctionResponseText(response: JsonObject): { text: string; isError: boolean; plain: boolean } {
  const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  const keys = Object.keys(response);
  if (response.error !== undefined && response.error !== null) {
    return { text: asText(response.error), isError: true, plain: keys.length === 1 && typeof response.error === 'string' };
  }
  if (response.output !== undefined) {
    return { text: asText(response.output), isError: false, plain: keys.length === 1 && typeof response.output === 'string' };
  }
  return { text: JSON.stringify(response), isError: false, plain: false };
}
