import { expandResponseToStreamParts } from '../core/expand-response.js';
import type { GatewayError } from '../core/gateway-error.js';
import type { GenerateResponse } from '../core/generate-response.js';
import type { StreamPart } from '../core/stream-part.js';
import type { StreamEncoder } from '../protocols/protocol-codec.js';
import type { ClientConnection } from './client-connection.js';
import { createClientStream, type ClientSink, type ClientStream } from './client-stream.js';
import { ResponseFollower } from './resume-follow.js';
import type { StreamBody } from './stream-to-client.js';

/** How often a retry that joined a drain looks for what arrived since. */
const FOLLOW_INTERVAL_MS = 20;

/** A drain still running, as a retry that joins it sees it. */
export interface FollowedDrain {
  /** The response so far. */
  snapshot(): GenerateResponse;
  /** Settles when the drain is over, with its failure if it failed. */
  readonly ended: Promise<GatewayError | undefined>;
}

export type ResumeSource = { kind: 'complete'; response: GenerateResponse } | { kind: 'live'; drain: FollowedDrain };

interface ResumedStreamOptions {
  source: ResumeSource;
  encoder: StreamEncoder;
  client: ClientConnection;
  onFirstByte: () => void;
  onEnd: (error: GatewayError | undefined) => Promise<void>;
}

/**
 * A streaming retry answered from a recovery record: a complete record at once; a drain in
 * progress as everything so far at once, then what arrives, as one stream in the client's protocol.
 * A class, not a factory of closures: it lives as long as the stream (CONTRIBUTING.md, "Code").
 */
export class ResumedStream implements StreamBody {
  #options: ResumedStreamOptions;

  constructor(options: ResumedStreamOptions) {
    this.#options = options;
  }

  pipeTo(sink: ClientSink): Promise<void> {
    const { encoder } = this.#options;
    const client = createClientStream({ sink, client: this.#options.client, keepAlive: () => encoder.keepAlive(), onFirstWrite: this.#options.onFirstByte });
    void this.#send(client).then(this.#options.onEnd);
    return client.closed;
  }

  async #send(client: ClientStream): Promise<GatewayError | undefined> {
    const { source, encoder } = this.#options;
    if (source.kind === 'complete') {
      await client.write(encode(encoder, expandResponseToStreamParts(source.response)));
      client.end(encoder.finish());
      return undefined;
    }
    const follower = new ResponseFollower();
    let failure: GatewayError | undefined;
    let ended = false;
    void source.drain.ended.then((error) => {
      failure = error;
      ended = true;
    });
    // Bounded by the drain itself, which its timeout ends; a client that leaves stops the follow.
    while (!ended && !this.#options.client.gone) {
      await client.write(encode(encoder, follower.next(source.drain.snapshot(), false)));
      await Promise.race([source.drain.ended, new Promise((resolve) => setTimeout(resolve, FOLLOW_INTERVAL_MS).unref())]);
    }
    if (failure) {
      await client.write(encode(encoder, follower.next(source.drain.snapshot(), false)));
      client.end(encoder.encode({ type: 'error', error: failure }));
      return failure;
    }
    await client.write(encode(encoder, follower.next(source.drain.snapshot(), true)));
    client.end(encoder.finish());
    return undefined;
  }
}

function encode(encoder: StreamEncoder, parts: readonly StreamPart[]): string {
  let text = '';
  for (const part of parts) text += encoder.encode(part);
  return text;
}
