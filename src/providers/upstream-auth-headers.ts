import type { Protocol } from '../core/protocol.js';

/** Default `anthropic-version` for upstream calls when the client sent none (PROTOCOLS.md §0). */
export const ANTHROPIC_VERSION = '2023-06-01';

/** How each protocol's official SDK sends its key (PROTOCOLS.md §0). */
export function createUpstreamAuthHeaders(protocol: Protocol, apiKey: string | undefined): Record<string, string> {
  switch (protocol) {
    case 'openai-chat':
    case 'openai-responses':
      return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
    case 'anthropic-messages':
      return { 'anthropic-version': ANTHROPIC_VERSION, ...(apiKey && { 'x-api-key': apiKey }) };
    case 'gemini':
      return apiKey ? { 'x-goog-api-key': apiKey } : {};
    default: {
      const unexpected: never = protocol;
      throw new Error(`Unhandled protocol ${String(unexpected)}`);
    }
  }
}
