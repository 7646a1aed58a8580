import type { StreamCollector } from '../core/collect-stream.js';
import type { Usage } from '../core/usage.js';
import type { ProtocolCodec, ResponseContext } from '../protocols/protocol-codec.js';
import { parseUpstreamJson, type OpenedUpstream } from './open-upstream.js';

export interface JsonResponse {
  body: string | Buffer;
  /** The response's usage, worked out only when someone asks (the request log). */
  usage: () => Usage;
}

/**
 * A non-stream client: the whole answer in the client's protocol, or for passthrough the
 * upstream's own bytes, which are decoded only if their usage is wanted.
 */
export async function collectJsonResponse(
  opened: Extract<OpenedUpstream, { kind: 'json' | 'parts' }>,
  codec: ProtocolCodec,
  context: ResponseContext,
  collector: StreamCollector,
): Promise<JsonResponse> {
  if (opened.kind === 'json') {
    if (opened.passthrough) {
      return { body: opened.body, usage: () => opened.upstreamCodec.decodeResponse(parseUpstreamJson(opened.body)).usage };
    }
    const response = opened.upstreamCodec.decodeResponse(parseUpstreamJson(opened.body));
    return { body: JSON.stringify(codec.encodeResponse(response, context)), usage: () => response.usage };
  }
  await opened.source.run((parts) => {
    for (const part of parts) collector.add(part);
  });
  const failure = collector.error();
  // A failure before any content is an error response; after some, the partial answer is kept.
  if (failure && collector.result().choices.every((choice) => choice.content.length === 0)) throw failure;
  const response = collector.result();
  return { body: JSON.stringify(codec.encodeResponse(response, context)), usage: () => response.usage };
}
