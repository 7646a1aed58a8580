import type { ProtocolMetadata } from './protocol.js';

/** Message parts: the protocol-neutral content of a conversation turn. */

export interface TextPart {
  type: 'text';
  text: string;
  protocolMetadata?: ProtocolMetadata;
}

/** Where the bytes of a file are: a URL the upstream may fetch, or inline base64. */
export type FileData = { type: 'url'; url: string } | { type: 'base64'; base64: string };

/** An image, a PDF or another document. */
export interface FilePart {
  type: 'file';
  mediaType: string;
  data: FileData;
  filename?: string;
  protocolMetadata?: ProtocolMetadata;
}

/** Model reasoning. `redactedData` holds an opaque redacted block (Anthropic `redacted_thinking`). */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  signature?: string;
  redactedData?: string;
  protocolMetadata?: ProtocolMetadata;
}

export interface ToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  /** The arguments as JSON text, exactly as the model produced them (may be invalid JSON). */
  input: string;
  protocolMetadata?: ProtocolMetadata;
}

export interface ToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  content: Array<TextPart | FilePart>;
  isError?: boolean;
  protocolMetadata?: ProtocolMetadata;
}

export type UserPart = TextPart | FilePart;
export type AssistantPart = TextPart | FilePart | ReasoningPart | ToolCallPart;

export type Message =
  | { role: 'system'; content: TextPart[] }
  | { role: 'user'; content: UserPart[] }
  | { role: 'assistant'; content: AssistantPart[] }
  | { role: 'tool'; content: ToolResultPart[] };

/** The text of a list of parts, joined; non-text parts are skipped. */
export function textOfParts(parts: ReadonlyArray<{ type: string; text?: string }>, separator = ''): string {
  let text = '';
  let first = true;
  for (const part of parts) {
    if (part.type !== 'text' || part.text === undefined) continue;
    text += first ? part.text : separator + part.text;
    first = false;
  }
  return text;
}
