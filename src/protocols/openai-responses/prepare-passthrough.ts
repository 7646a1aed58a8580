import type { PassthroughOptions, PreparedPassthrough } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';

/**
 * The client's body goes upstream with only the model replaced. Responses streams always end with
 * the full usage in the terminal event, so nothing needs to be asked for or held back.
 */
export function prepareOpenAIResponsesPassthrough(body: JsonObject, options: PassthroughOptions): PreparedPassthrough {
  const path = `/responses${options.search}`;
  return body.model === options.model ? { path } : { path, body: Object.assign({}, body, { model: options.model }) };
}
