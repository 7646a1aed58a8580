import type { StreamCollector } from '../core/collect-stream.js';
import { toGatewayError, type GatewayError } from '../core/gateway-error.js';
import type { StreamPart } from '../core/stream-part.js';
import type { ProtocolCodec, ResponseContext, StreamEncoder } from '../protocols/protocol-codec.js';
import type { ClientConnection } from './client-connection.js';
import { createClientStream, type ClientSink, type ClientStream } from './client-stream.js';
import type { OpenedUpstream } from './open-attempt.js';

/** A response body written as it is produced, straight into the client's connection. */
export interface StreamBody {
  /**
   * Writes the stream into `sink` (once). Resolves when the stream has ended for the client, or
   * the client has gone away; the upstream may still be drained into a recovery record after that.
   */
  pipeTo(sink: ClientSink): Promise<void>;
}

interface StreamToClientOptions {
  opened: Extract<OpenedUpstream, { kind: 'parts' | 'passthrough-stream' }>;
  codec: ProtocolCodec;
  context: ResponseContext;
  collector: StreamCollector;
  client: ClientConnection;
  /** The error to report when the gateway itself stopped the stream (shutdown). */
  stoppedBy: () => GatewayError | undefined;
  /** The first bytes of the body went to the client. */
  onFirstByte: () => void;
  onEnd: (error: GatewayError | undefined) => Promise<void>;
}

/**
 * A stream client: what the upstream sends reaches the client as it arrives. Passthrough: the
 * upstream's own bytes (its tap decodes them later, if asked). Otherwise: the decoded parts,
 * encoded in the client's protocol, while `collector` keeps the response for usage and recoveries.
 * `onEnd` runs once the stream is over.
 */
export function streamToClient(options: StreamToClientOptions): StreamBody {
  return new ClientStreamBody(options);
}

/** A class, not a factory of closures: it lives as long as the stream (CONTRIBUTING.md, "Code"). */
class ClientStreamBody implements StreamBody {
  #options: StreamToClientOptions;
  /** Made on first use: a passthrough stream needs one only to write an error in the client's protocol. */
  #encoder: StreamEncoder | undefined;
  #client: ClientStream | undefined;

  constructor(options: StreamToClientOptions) {
    this.#options = options;
  }

  pipeTo(sink: ClientSink): Promise<void> {
    const { opened, onEnd } = this.#options;
    // Passthrough upstreams send their own keep-alives (Anthropic pings).
    const keepAlive = opened.kind === 'passthrough-stream' ? undefined : () => this.#encoderOf().keepAlive();
    const client = createClientStream({ sink, client: this.#options.client, keepAlive, onFirstWrite: this.#options.onFirstByte });
    void this.#send(client).then(onEnd);
    return client.closed;
  }

  #encoderOf(): StreamEncoder {
    return (this.#encoder ??= this.#options.codec.createStreamEncoder(this.#options.context));
  }

  /** Runs the upstream to its end into `client`; returns the failure to report, if any. */
  async #send(client: ClientStream): Promise<GatewayError | undefined> {
    const { opened, collector } = this.#options;
    let failure: GatewayError | undefined;
    /** The closing event, sent with the end of the response. */
    let last: string | undefined;
    this.#client = client;
    try {
      // Methods bound, not arrows made per stream: what runs per read is a method (CONTRIBUTING.md, "Code").
      if (opened.kind === 'passthrough-stream') {
        await opened.source.run(client.write.bind(client));
        failure = collector.error();
      } else {
        await opened.source.run(this.#writeParts.bind(this));
        failure = collector.error();
        if (!failure) last = this.#encoderOf().finish();
      }
    } catch (error) {
      failure = this.#options.stoppedBy() ?? toGatewayError(error);
      // The 200 is committed: the error goes in the stream, in the client's protocol. After a
      // passthrough's own events, it is the protocol's error event alone (no opening events).
      last = opened.kind === 'passthrough-stream' ? this.#options.codec.encodeStreamError(failure) : this.#encoderOf().encode({ type: 'error', error: failure });
    } finally {
      client.end(last);
    }
    return failure;
  }

  /** One read's parts: encoded for the client, then kept by the collector. */
  #writeParts(parts: StreamPart[]): Promise<void> | undefined {
    let text = '';
    const encoder = this.#encoderOf();
    for (const part of parts) text += encoder.encode(part);
    const written = text ? this.#client!.write(text) : undefined;
    // Kept after the client has its bytes: nothing it needs waits for the collector.
    for (const part of parts) this.#options.collector.add(part);
    return written;
  }
}
