import type { StreamCollector } from '../core/collect-stream.js';
import type { ProtocolCodec, ResponseContext } from '../protocols/protocol-codec.js';
import { parseUpstreamJson, type OpenedUpstream } from './open-upstream.js';

/**
 * A non-stream client: the whole answer in the client's protocol, or for passthrough the
 * upstream's own bytes (decoded on the side only for usage).
 */
export async function collectJsonResponse(
  opened: Exclude<OpenedUpstream, { kind: 'error' }>,
  codec: ProtocolCodec,
  context: ResponseContext,
  collector: StreamCollector,
): Promise<string> {
  if (opened.kind === 'json') {
    const response = opened.upstreamCodec.decodeResponse(parseUpstreamJson(opened.text));
    collector.add({ type: 'finish', finishReason: response.choices[0]?.finishReason ?? { unified: 'other' }, usage: response.usage });
    return opened.passthrough ? opened.text : JSON.stringify(codec.encodeResponse(response, context));
  }
  await opened.source.run((parts) => {
    for (const part of parts) collector.add(part);
  });
  const failure = collector.error();
  // A failure before any content is an error response; after some, the partial answer is kept.
  if (failure && collector.result().choices.every((choice) => choice.content.length === 0)) throw failure;
  return JSON.stringify(codec.encodeResponse(collector.result(), context));
}
