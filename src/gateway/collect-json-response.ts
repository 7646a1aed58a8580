import type { StreamCollector } from '../core/collect-stream.js';
import type { Usage } from '../core/usage.js';
import type { ProtocolCodec, ResponseContext } from '../protocols/protocol-codec.js';
import { parseUpstreamJson, type OpenedUpstream } from './open-attempt.js';

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
      // Parsed even though the bytes go on as they are: a body cut short must not reach the client
      // as a 200 (and the log reads its usage from the same parse).
      const parsed = parseUpstreamJson(opened.body);
      return { body: opened.body, usage: () => opened.upstreamCodec.decodeResponse(parsed).usage };
    }
    const response = opened.upstreamCodec.decodeResponse(parseUpstreamJson(opened.body));
    return { body: JSON.stringify(codec.encodeResponse(response, context)), usage: () => response.usage };
  }
  await opened.source.run((parts) => {
    for (const part of parts) collector.add(part);
  });
  // A failure is an error response, whatever came before it: the partial answer goes to the record.
  const failure = collector.error();
  if (failure) throw failure;
  const response = collector.result();
  return { body: JSON.stringify(codec.encodeResponse(response, context)), usage: () => response.usage };
}
