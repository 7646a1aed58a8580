import { GatewayError } from '../core/gateway-error.js';
import type { Protocol } from '../core/protocol.js';
import { getCodec } from '../protocols/codecs.js';
import { isJsonObject, type JsonObject } from '../protocols/read-fields.js';
import { countRequestTokens, loadTokenCounter } from '../providers/count-tokens.js';

/**
 * Input tokens of a request body, for the count-tokens endpoints of each protocol. Counted locally
 * with the gateway's tokenizer: exact for OpenAI's current models, a close estimate for others.
 */
export async function countInputTokens(protocol: Protocol, body: JsonObject, pathModel?: string): Promise<number> {
  const codec = getCodec(protocol);
  const request = codec.decodeRequest(normalizeCountBody(protocol, body), { pathModel, stream: false }).request;
  return countRequestTokens(request, await loadTokenCounter());
}

/** Count bodies lack fields their generation requests require; fill them in. */
function normalizeCountBody(protocol: Protocol, body: JsonObject): JsonObject {
  switch (protocol) {
    case 'anthropic-messages':
      return { max_tokens: 1, ...body };
    case 'gemini': {
      // {contents} or {generateContentRequest: {...}} (PROTOCOLS.md §4.6).
      if (body.generateContentRequest !== undefined) {
        if (!isJsonObject(body.generateContentRequest)) throw new GatewayError('invalid_request', "Invalid 'generateContentRequest': expected an object.", { param: 'generateContentRequest' });
        return body.generateContentRequest;
      }
      return body;
    }
    case 'openai-responses':
      return { input: '', ...body };
    case 'openai-chat':
      return body;
    default: {
      const unexpected: never = protocol;
      throw new Error(`Unhandled protocol ${String(unexpected)}`);
    }
  }
}
