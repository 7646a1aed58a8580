import type { ReasoningPart } from '../../core/content-part.js';
import type { ProtocolMetadata } from '../../core/protocol.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';

/**
 * Reasoning items ↔ reasoning parts. The text is the summary (joined by blank lines), or the raw
 * `reasoning_text` content when there is no summary (open-weight models served over Responses).
 *
 * `encrypted_content` is an opaque string the client sends back on the next turn. When the reasoning
 * came from another vendor (an Anthropic thinking signature, redacted thinking, Gemini metadata),
 * the gateway has nowhere else to keep it, because it stores nothing between requests (docs/protocols.md
 * §7.3); so it rides in `encrypted_content` under our own prefix and is restored on the way back.
 * Without it, a Responses client (Codex CLI) in front of Claude with thinking fails on its second
 * tool turn: Anthropic requires the signed thinking block before the tool_use.
 */
const CARRIER_PREFIX = 'switchyard.reasoning.v1:';

export interface OpenAIResponsesReasoningMetadata {
  itemId?: string;
  encryptedContent?: string;
}

/** The `openai-responses` metadata of a part, or an empty object. */
export function ownMetadata(part: { protocolMetadata?: ProtocolMetadata }): JsonObject {
  return part.protocolMetadata?.['openai-responses'] ?? {};
}

/** A reasoning item (input or output) → a reasoning part. Lenient: unreadable entries are skipped. */
export function decodeReasoningItem(item: JsonObject): ReasoningPart {
  const texts = (entries: unknown): string[] =>
    Array.isArray(entries) ? entries.filter(isJsonObject).flatMap((entry) => (typeof entry.text === 'string' ? [entry.text] : [])) : [];
  const summary = texts(item.summary);
  const part: ReasoningPart = { type: 'reasoning', text: (summary.length > 0 ? summary : texts(item.content)).join('\n\n') };
  const metadata: OpenAIResponsesReasoningMetadata = {};
  if (typeof item.id === 'string' && item.id) metadata.itemId = item.id;
  if (typeof item.encrypted_content === 'string' && item.encrypted_content) {
    const carried = decodeCarrier(item.encrypted_content);
    if (carried) Object.assign(part, carried);
    else metadata.encryptedContent = item.encrypted_content;
  }
  if (Object.keys(metadata).length > 0) part.protocolMetadata = Object.assign({}, part.protocolMetadata, { 'openai-responses': { ...metadata } });
  return part;
}

/** A reasoning part → an output item for a Responses client. */
export function encodeReasoningItem(part: ReasoningPart, id: string): JsonObject {
  const own = ownMetadata(part);
  const encrypted = typeof own.encryptedContent === 'string' ? own.encryptedContent : encodeCarrier(part);
  return {
    type: 'reasoning',
    id,
    summary: part.text ? [{ type: 'summary_text', text: part.text }] : [],
    ...(encrypted !== undefined && { encrypted_content: encrypted }),
  };
}

function encodeCarrier(part: ReasoningPart): string | undefined {
  const foreign: ProtocolMetadata = { ...part.protocolMetadata };
  delete foreign['openai-responses'];
  const carried: JsonObject = {};
  if (part.signature !== undefined) carried.signature = part.signature;
  if (part.redactedData !== undefined) carried.redactedData = part.redactedData;
  if (Object.keys(foreign).length > 0) carried.protocolMetadata = foreign;
  if (Object.keys(carried).length === 0) return undefined;
  return CARRIER_PREFIX + Buffer.from(JSON.stringify(carried), 'utf8').toString('base64');
}

/** Our own carrier → the fields it restores; undefined for OpenAI's real encrypted content. */
function decodeCarrier(value: string): Pick<ReasoningPart, 'signature' | 'redactedData' | 'protocolMetadata'> | undefined {
  if (!value.startsWith(CARRIER_PREFIX)) return undefined;
  let carried: unknown;
  try {
    carried = JSON.parse(Buffer.from(value.slice(CARRIER_PREFIX.length), 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isJsonObject(carried)) return undefined;
  const restored: Pick<ReasoningPart, 'signature' | 'redactedData' | 'protocolMetadata'> = {};
  if (typeof carried.signature === 'string') restored.signature = carried.signature;
  if (typeof carried.redactedData === 'string') restored.redactedData = carried.redactedData;
  if (isJsonObject(carried.protocolMetadata)) {
    const metadata: ProtocolMetadata = {};
    // Only other vendors' namespaces, each an object: the carrier never overrides our own metadata.
    for (const [protocol, fields] of Object.entries(carried.protocolMetadata)) {
      if (protocol !== 'openai-responses' && isJsonObject(fields)) metadata[protocol] = fields;
    }
    if (Object.keys(metadata).length > 0) restored.protocolMetadata = metadata;
  }
  return restored;
}
