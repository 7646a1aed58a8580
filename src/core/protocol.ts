/** The four wire protocols the gateway serves and calls. */
export type Protocol = 'openai-chat' | 'anthropic-messages' | 'openai-responses' | 'gemini';

export const PROTOCOLS: readonly Protocol[] = ['openai-chat', 'anthropic-messages', 'openai-responses', 'gemini'];

/**
 * Data that only the same protocol can use again (thinking signatures, Gemini thoughtSignature,
 * Responses item ids, encrypted reasoning), namespaced by protocol. Encoders of other protocols
 * ignore it.
 */
export type ProtocolMetadata = Partial<Record<Protocol, Record<string, unknown>>>;

export function isProtocol(value: unknown): value is Protocol {
  return typeof value === 'string' && (PROTOCOLS as readonly string[]).includes(value);
}
