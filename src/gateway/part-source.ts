import type { GatewayError } from '../core/gateway-error.js';
import { redactGatewayError } from '../core/redact-secrets.js';
import type { StreamPart } from '../core/stream-part.js';
import type { StreamDecoder } from '../protocols/protocol-codec.js';
import type { UpstreamBody } from '../providers/upstream-client.js';
import { createSseParser, type SseParser } from '../sse/parse-sse.js';
import type { SseEvent } from '../sse/sse-event.js';

/** The decoded parts of one network read (or of one step of an in-process generator). */
export type BatchHandler = (parts: StreamPart[]) => Promise<void> | void;

export interface PartSource {
  /** Runs to the end of the upstream, one batch per read; throws when the upstream breaks. */
  run(onBatch: BatchHandler): Promise<void>;
}

/** An upstream SSE body decoded event by event as it arrives, for a client of another protocol. */
export function createSseSource(options: {
  body: UpstreamBody;
  decoder: StreamDecoder;
  failure: (error: unknown) => GatewayError;
  /** Keys to blank out of an upstream's error event (which may quote one) before anyone sees it. */
  secrets: () => readonly string[];
}): PartSource {
  return new SseSource(options.body, options.decoder, options.failure, options.secrets);
}

/** A class, not a factory of closures: a source lives as long as its stream (CONTRIBUTING.md, "Code"). */
class SseSource implements PartSource {
  #body: UpstreamBody;
  #decoder: StreamDecoder;
  #failure: (error: unknown) => GatewayError;
  #secrets: () => readonly string[];
  /** The parts of the read being decoded. */
  #parts: StreamPart[] = [];
  #parser: SseParser | undefined;
  #onBatch: BatchHandler | undefined;

  constructor(body: UpstreamBody, decoder: StreamDecoder, failure: (error: unknown) => GatewayError, secrets: () => readonly string[]) {
    this.#body = body;
    this.#decoder = decoder;
    this.#failure = failure;
    this.#secrets = secrets;
  }

  async run(onBatch: BatchHandler): Promise<void> {
    this.#onBatch = onBatch;
    // Methods bound, not arrows made per stream: what runs per read is a method (CONTRIBUTING.md, "Code").
    const parser = (this.#parser = createSseParser(this.#decodeEvent.bind(this)));
    try {
      await this.#body.consume(this.#read.bind(this));
    } catch (error) {
      throw this.#failure(error);
    }
    parser.end();
    for (const part of this.#decoder.end()) this.#keep(part);
    await this.#flush(onBatch);
  }

  /** One network read: its events decoded, their parts handed on. */
  #read(chunk: Buffer): Promise<void> | void {
    this.#parser!.feed(chunk);
    return this.#flush(this.#onBatch!);
  }

  #decodeEvent(event: SseEvent): void {
    for (const part of this.#decoder.decode(event)) this.#keep(part);
  }

  /** An upstream's error part is kept with every key blanked out of it. */
  #keep(part: StreamPart): void {
    this.#parts.push(part.type === 'error' ? { type: 'error', error: redactGatewayError(part.error, this.#secrets()) } : part);
  }

  /** Hands the parts decoded so far to `onBatch`, if there are any. */
  #flush(onBatch: BatchHandler): Promise<void> | void {
    if (this.#parts.length === 0) return undefined;
    const batch = this.#parts;
    this.#parts = [];
    return onBatch(batch);
  }
}

/** Parts from an in-process generator (the mock provider). */
export function createGeneratorSource(parts: AsyncIterator<StreamPart>, first: IteratorResult<StreamPart>): PartSource {
  return {
    async run(onBatch) {
      let next = first;
      while (!next.done) {
        await onBatch([next.value]);
        next = await parts.next();
      }
    },
  };
}
