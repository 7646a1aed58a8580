import type { PassthroughOptions, PreparedPassthrough } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';

/**
 * The client's body goes upstream with the model replaced. The query string stays: the SDK's beta
 * client calls `/v1/messages?beta=true`, and the upstream must see it too.
 */
export function prepareAnthropicMessagesPassthrough(body: JsonObject, options: PassthroughOptions): PreparedPassthrough {
  const path = `/v1/messages${options.search}`;
  return body.model === options.model ? { path } : { path, body: Object.assign({}, body, { model: options.model }) };
}
