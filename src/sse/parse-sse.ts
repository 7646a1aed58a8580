import { createParser } from 'eventsource-parser';
import type { SseEvent } from './sse-event.js';

export interface SseParser {
  /** Feeds bytes (or text) as they arrive; events are delivered to the callback synchronously. */
  feed(chunk: Uint8Array | string): void;
  /** End of input: a last event without its blank line is dispatched. */
  end(): void;
}

/**
 * The one SSE parser (eventsource-parser underneath). Comments (`: keep-alive`) are skipped; a
 * line that is not SSE at all is delivered as `{ data: line, unframed: true }`.
 */
export function createSseParser(onEvent: (event: SseEvent) => void): SseParser {
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent: (message) => onEvent({ event: message.event, data: message.data, id: message.id }),
    onError: (error) => {
      if (error.type === 'unknown-field' && error.line !== undefined) onEvent({ data: error.line, unframed: true });
    },
  });
  return {
    feed(chunk) {
      parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    },
    end() {
      const rest = decoder.decode();
      // A final record without its terminating blank line still counts (servers that end abruptly).
      parser.feed(rest + '\n\n');
    },
  };
}
