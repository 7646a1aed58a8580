import type { Readable } from 'node:stream';
import type { StreamCollector } from '../core/collect-stream.js';
import { toGatewayError, type GatewayError } from '../core/gateway-error.js';
import type { ProtocolCodec, ResponseContext } from '../protocols/protocol-codec.js';
import { formatOutboundChunks } from '../sse/write-sse.js';
import { createClientStream } from './client-stream.js';
import type { ClientConnection } from './client-connection.js';
import type { PartSource } from './part-source.js';

/**
 * A stream client: what the upstream sends reaches the client event by event (passthrough: the
 * upstream's own events; otherwise the parts encoded in the client's protocol), while the collector
 * keeps the whole response for usage and recoveries. `onEnd` runs once the stream is over.
 */
export function streamToClient(options: {
  source: PartSource;
  passthrough: boolean;
  codec: ProtocolCodec;
  context: ResponseContext;
  collector: StreamCollector;
  client: ClientConnection;
  /** The error to report when the gateway itself stopped the stream (shutdown). */
  stoppedBy: () => GatewayError | undefined;
  onEnd: (error: GatewayError | undefined) => Promise<void>;
}): Readable {
  const { source, passthrough, collector } = options;
  const encoder = options.codec.createStreamEncoder(options.context);
  // Passthrough upstreams send their own keep-alives (Anthropic pings).
  const client = createClientStream({ client: options.client, keepAlive: passthrough ? undefined : () => formatOutboundChunks(encoder.keepAlive()) });

  void (async () => {
    let failure: GatewayError | undefined;
    try {
      await source.run((parts, passthroughText) => {
        let text = passthrough ? passthroughText : '';
        for (const part of parts) {
          collector.add(part);
          if (!passthrough) text += formatOutboundChunks(encoder.encode(part));
        }
        return text ? client.write(text) : undefined;
      });
      failure = collector.error();
      if (!passthrough && !failure) client.write(formatOutboundChunks(encoder.finish()));
    } catch (error) {
      failure = options.stoppedBy() ?? toGatewayError(error);
      // Headers are sent: the error goes in the stream, in the client's protocol.
      client.write(formatOutboundChunks(encoder.encode({ type: 'error', error: failure })));
    } finally {
      client.end();
    }
    await options.onEnd(failure);
  })();
  return client.body;
}
