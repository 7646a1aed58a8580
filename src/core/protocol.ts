/**
 * A wire protocol's id (`openai-chat`, `anthropic-messages`, `openai-responses`, `gemini`, …).
 * Which ids exist is the registry's to say (`protocols/registry.ts`), checked where an id comes
 * in (the config, a route): core code passes ids along and never switches over them.
 */
export type Protocol = string;

/**
 * Data that only the same protocol can use again (thinking signatures, Gemini thoughtSignature,
 * Responses item ids, encrypted reasoning), namespaced by protocol. Encoders of other protocols
 * ignore it.
 */
export type ProtocolMetadata = Partial<Record<Protocol, Record<string, unknown>>>;
