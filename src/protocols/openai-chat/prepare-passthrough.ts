import type { SseEvent } from '../../sse/sse-event.js';
import type { PassthroughOptions, PreparedPassthrough } from '../protocol-codec.js';
import { parseEventData } from '../parse-event-data.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';

/**
 * The client's body goes upstream with the model replaced. For streams the gateway asks for usage
 * (it reports and records it); when the client did not ask, that final usage chunk is held back.
 */
export function prepareOpenAIChatPassthrough(body: JsonObject, options: PassthroughOptions): PreparedPassthrough {
  const path = '/chat/completions';
  const streamOptions = isJsonObject(body.stream_options) ? body.stream_options : {};
  if (!options.stream || streamOptions.include_usage === true) {
    return body.model === options.model ? { path } : { path, body: Object.assign({}, body, { model: options.model }) };
  }
  return { path, body: Object.assign({}, body, { model: options.model, stream_options: Object.assign({}, streamOptions, { include_usage: true }) }), hideEvent: { marker: '"choices":[]', test: isUsageOnlyChunk } };
}

function isUsageOnlyChunk(event: SseEvent): boolean {
  // Cheap test first: the usage chunk is the only one with an empty choices list.
  if (!event.data.includes('"choices":[]')) return false;
  const chunk = parseEventData(event.data);
  return isJsonObject(chunk) && Array.isArray(chunk.choices) && chunk.choices.length === 0;
}
