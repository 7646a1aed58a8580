import type { ProtocolDescriptor } from '../protocols/protocol-descriptor.js';
import type { JsonObject } from '../protocols/read-fields.js';
import { countRequestTokens, loadTokenCounter } from '../providers/count-tokens.js';

/**
 * Input tokens of a request body, for the count-tokens endpoints of each protocol. Counted locally
 * with the gateway's tokenizer: exact for OpenAI's current models, a close estimate for others.
 */
export async function countInputTokens(protocol: ProtocolDescriptor, body: JsonObject, pathModel?: string): Promise<number> {
  // Count bodies lack fields their generation requests require: the protocol fills them in.
  const normalized = protocol.countTokens ? protocol.countTokens.normalizeBody(body) : body;
  const request = protocol.codec.decodeRequest(normalized, { pathModel, stream: false }).request;
  return countRequestTokens(request, await loadTokenCounter());
}
