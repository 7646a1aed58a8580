import type { GatewayError } from '../core/gateway-error.js';
import type { StreamPart } from '../core/stream-part.js';
import type { StreamDecoder } from '../protocols/protocol-codec.js';
import type { UpstreamBody } from '../providers/upstream-client.js';
import { createSseParser } from '../sse/parse-sse.js';

/** The decoded parts of one network read (or of one step of an in-process generator). */
export type BatchHandler = (parts: StreamPart[]) => Promise<void> | void;

export interface PartSource {
  /** Runs to the end of the upstream, one batch per read; throws when the upstream breaks. */
  run(onBatch: BatchHandler): Promise<void>;
}

/** An upstream SSE body decoded event by event as it arrives, for a client of another protocol. */
export function createSseSource(options: { body: UpstreamBody; decoder: StreamDecoder; failure: (error: unknown) => GatewayError }): PartSource {
  return {
    async run(onBatch) {
      let parts: StreamPart[] = [];
      const parser = createSseParser((event) => {
        for (const part of options.decoder.decode(event)) parts.push(part);
      });
      const flush = () => {
        if (parts.length === 0) return undefined;
        const batch = parts;
        parts = [];
        return onBatch(batch);
      };
      await options.body.consume((chunk) => {
        parser.feed(chunk);
        return flush();
      }).catch((error: unknown) => {
        throw options.failure(error);
      });
      parser.end();
      for (const part of options.decoder.end()) parts.push(part);
      await flush();
    },
  };
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
