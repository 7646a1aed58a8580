import type { AssistantPart, Message, ToolResultPart, UserPart } from '../../core/content-part.js';
import { textOfParts } from '../../core/content-part.js';
import type { GenerateRequest } from '../../core/generate-request.js';
import type { Warning } from '../../core/warning.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { geminiMetadataOf } from './decode-part.js';
import { encodeGeminiFilePart, encodeGeminiReasoningPart, encodeGeminiTextPart, encodeGeminiToolCall } from './encode-part.js';

/**
 * Gemini 3 rejects a function call in history without a `thoughtSignature` (400 "Function call is
 * missing a thought_signature"). Calls that another vendor made have none; Google documents this
 * placeholder for such history (https://ai.google.dev/gemini-api/docs/thought-signatures), which
 * skips the check. It is only used in model turns where no call carries Gemini's own signature:
 * in Gemini's parallel calls only the first has one, and the others must stay as they were.
 */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

interface CallInfo {
  name: string;
  functionCallId?: string;
}

/** Files Gemini fetches itself: Files API uploads, Cloud Storage and YouTube. */
const FETCHABLE_URL = /^(gs:\/\/|https:\/\/(generativelanguage\.googleapis\.com\/|(www\.)?youtube\.com\/|youtu\.be\/))/;

/**
 * Core messages → Gemini `systemInstruction` and `contents` (docs/protocols.md §7.2): roles `user` and
 * `model` only, tool results as `functionResponse` parts of a user turn, consecutive turns of one
 * role merged (Gemini wants them alternating).
 */
export function encodeGeminiContents(request: GenerateRequest, warnings: Warning[]): { systemInstruction?: JsonObject; contents: JsonObject[] } {
  const systemParts: JsonObject[] = request.system.map((part) => ({ text: part.text }));
  const contents: JsonObject[] = [];
  const calls = new Map<string, CallInfo>();
  const pushTurn = (role: 'user' | 'model', parts: JsonObject[]) => {
    if (parts.length === 0) return;
    const previous = contents[contents.length - 1];
    if (previous?.role === role) (previous.parts as JsonObject[]).push(...parts);
    else contents.push({ role, parts });
  };

  request.messages.forEach((message: Message, index) => {
    const param = `messages[${index}]`;
    switch (message.role) {
      case 'system':
        systemParts.push(...message.content.map((part) => ({ text: part.text })));
        warnings.push({ type: 'changed', feature: `${param} system`, details: 'moved into systemInstruction: Gemini has one system instruction' });
        return;
      case 'user':
        pushTurn('user', message.content.map((part) => encodeUserPart(part, param, warnings)));
        return;
      case 'assistant':
        pushTurn('model', encodeModelParts(message.content, param, calls, warnings));
        return;
      case 'tool':
        pushTurn('user', message.content.flatMap((result) => encodeToolResult(result, param, calls, warnings)));
        return;
      default: {
        const unexpected: never = message;
        throw new Error(`Unhandled message ${JSON.stringify(unexpected)}`);
      }
    }
  });
  return systemParts.length > 0 ? { systemInstruction: { parts: systemParts }, contents } : { contents };
}

function encodeUserPart(part: UserPart, param: string, warnings: Warning[]): JsonObject {
  if (part.type === 'text') return encodeGeminiTextPart(part);
  if (part.data.type === 'url' && !FETCHABLE_URL.test(part.data.url)) {
    warnings.push({ type: 'changed', feature: `${param} file ${part.mediaType}`, details: 'sent as fileData by URL; Gemini may not fetch arbitrary URLs' });
  }
  return encodeGeminiFilePart(part);
}

function encodeModelParts(content: AssistantPart[], param: string, calls: Map<string, CallInfo>, warnings: Warning[]): JsonObject[] {
  const signedByGemini = content.some((part) => part.type === 'tool-call' && typeof geminiMetadataOf(part).thoughtSignature === 'string');
  const parts: JsonObject[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text': {
        const metadata = geminiMetadataOf(part);
        // Gemini rejects empty text parts, except its own signature carriers.
        if (part.text === '' && metadata.thoughtSignature === undefined && !isJsonObject(metadata.part)) continue;
        parts.push(encodeGeminiTextPart(part));
        continue;
      }
      case 'reasoning':
        if (part.protocolMetadata?.gemini === undefined) {
          warnings.push({ type: 'dropped', feature: `${param} reasoning`, details: 'reasoning of another vendor cannot be sent to Gemini' });
          continue;
        }
        parts.push(encodeGeminiReasoningPart(part.text, part));
        continue;
      case 'tool-call': {
        const functionCallId = geminiMetadataOf(part).functionCallId;
        calls.set(part.toolCallId, { name: part.toolName, ...(typeof functionCallId === 'string' && { functionCallId }) });
        parts.push(encodeGeminiToolCall(part, 'upstream', signedByGemini ? undefined : SKIP_THOUGHT_SIGNATURE));
        continue;
      }
      case 'file':
        parts.push(encodeGeminiFilePart(part));
        continue;
      default: {
        const unexpected: never = part;
        throw new Error(`Unhandled content part ${JSON.stringify(unexpected)}`);
      }
    }
  }
  return parts;
}

/**
 * A tool result → a `functionResponse` part (Gemini wants the function's name, which OpenAI tool
 * messages lack: it is looked up from the call) followed by its files as parts of the same turn.
 */
function encodeToolResult(result: ToolResultPart, param: string, calls: Map<string, CallInfo>, warnings: Warning[]): JsonObject[] {
  const call = calls.get(result.toolCallId);
  const metadata = geminiMetadataOf(result);
  let name = result.toolName || call?.name;
  if (!name) {
    name = result.toolCallId;
    warnings.push({ type: 'changed', feature: `${param} tool result`, details: `no call ${result.toolCallId} in the history: its id is sent as the function name` });
  }
  const id = typeof metadata.functionResponseId === 'string' ? metadata.functionResponseId : call?.functionCallId;
  const text = textOfParts(result.content, '\n');
  const response = isJsonObject(metadata.response) ? metadata.response : result.isError ? { error: text } : { output: text };
  const files = result.content.flatMap((part) => (part.type === 'file' ? [encodeUserPart(part, param, warnings)] : []));
  return [{ functionResponse: id !== undefined ? { id, name, response } : { name, response } }, ...files];
}
