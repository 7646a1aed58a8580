import type { PassthroughOptions, PreparedPassthrough } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';
import { geminiGeneratePath } from './generate-path.js';

/**
 * The client's body goes upstream unchanged: the model is in the path. The client's query string
 * is kept except `key` (the client's own API key: never forwarded, the provider's key is sent as a
 * header) and `alt`, which the path sets for streams.
 */
export function prepareGeminiPassthrough(_body: JsonObject, options: PassthroughOptions): PreparedPassthrough {
  const query = new URLSearchParams(options.search);
  query.delete('key');
  query.delete('alt');
  return { path: geminiGeneratePath(options.model, options.stream, query.toString()) };
}
