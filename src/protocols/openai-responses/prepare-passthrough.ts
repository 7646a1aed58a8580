import type { PassthroughOptions, PreparedPassthrough } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';

/**
 * The client's body goes upstream with only the model replaced. Responses streams always end with
 * the full usage in the terminal event, so nothing needs to be asked for or held back.
 */
export function prepareOpenAIResponsesPassthrough(body: JsonObject, options: PassthroughOptions): PreparedPassthrough {
  return { path: `/responses${options.search}`, body: { ...body, model: options.model } };
}
