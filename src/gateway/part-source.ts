import type { Readable } from 'node:stream';
import type { StreamPart } from '../core/stream-part.js';
import type { StreamDecoder } from '../protocols/protocol-codec.js';
import { createSseParser } from '../sse/parse-sse.js';
import type { SseEvent } from '../sse/sse-event.js';
import { formatSseEvent } from '../sse/write-sse.js';

/**
 * A batch of what arrived in one network read: the decoded parts, and for passthrough the
 * upstream's events re-framed unchanged for the client.
 */
export type BatchHandler = (parts: StreamPart[], passthroughText: string) => Promise<void> | void;

export interface PartSource {
  /** Runs to the end of the upstream, one batch per read; throws when the upstream breaks. */
  run(onBatch: BatchHandler): Promise<void>;
}

/** An upstream SSE body decoded event by event, without buffering the stream. */
export function createSseSource(options: {
  body: Readable;
  decoder: StreamDecoder;
  /** Forward upstream events to the client as they are (same protocol on both ends). */
  passthrough: boolean;
  hideEvent?: (event: SseEvent) => boolean;
}): PartSource {
  return {
    async run(onBatch) {
      let parts: StreamPart[] = [];
      let text = '';
      const parser = createSseParser((event) => {
        for (const part of options.decoder.decode(event)) parts.push(part);
        if (!options.passthrough || options.hideEvent?.(event)) return;
        // Unframed lines (Gemini's bare error JSON) go through as they came.
        text += event.unframed ? `${event.data}\n` : formatSseEvent(event);
      });
      const flush = async () => {
        if (parts.length === 0 && text === '') return;
        const batch = parts;
        const batchText = text;
        parts = [];
        text = '';
        await onBatch(batch, batchText);
      };
      for await (const chunk of options.body) {
        parser.feed(chunk as Buffer);
        await flush();
      }
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
        await onBatch([next.value], '');
        next = await parts.next();
      }
    },
  };
}
