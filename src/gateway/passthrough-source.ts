import { createStreamCollector, type StreamCollector } from '../core/collect-stream.js';
import { GatewayError } from '../core/gateway-error.js';
import type { HiddenEvents, StreamDecoder } from '../protocols/protocol-codec.js';
import type { UpstreamBody } from '../providers/upstream-client.js';
import { createSseParser, findLastEventEnd, parseSseEvents, type SseParser } from '../sse/parse-sse.js';
import { formatSseEvent } from '../sse/write-sse.js';

/**
 * A same-protocol upstream stream: its bytes go to the client as they arrive, untouched (only
 * events the client did not ask for are taken out). Nothing is parsed on the way: the `tap` keeps
 * the bytes and decodes them only when someone asks (the request log, a recovery record).
 */
export interface PassthroughSource {
  run(onBytes: (bytes: Buffer | string) => Promise<void> | void): Promise<void>;
  readonly tap: StreamCollector;
}

export function createPassthroughSource(options: {
  body: UpstreamBody;
  /** Made only if the tap is ever decoded. */
  createDecoder: () => StreamDecoder;
  hidden?: HiddenEvents;
  failure: (error: unknown) => GatewayError;
}): PassthroughSource {
  const tap = createPassthroughTap(options.createDecoder);
  return {
    tap,
    run: (onBytes) =>
      forward(options.body, tap, options.hidden, onBytes).catch((error: unknown) => {
        throw GatewayError.is(error) ? error : options.failure(error);
      }),
  };
}

/** Writes the upstream's bytes on as they arrive, keeping each in the tap. */
async function forward(
  body: UpstreamBody,
  tap: PassthroughTap,
  hidden: HiddenEvents | undefined,
  onBytes: (bytes: Buffer | string) => Promise<void> | void,
): Promise<void> {
  if (!hidden) {
    await body.consume((chunk) => {
      // The client's bytes first, the tap's bookkeeping after.
      const written = onBytes(chunk);
      tap.push(chunk);
      return written;
    });
    tap.end();
    return;
  }
  // Hidden events are found by whole events: bytes are held until their event is complete.
  let held: Buffer | undefined;
  await body.consume((chunk) => {
    const bytes = held ? Buffer.concat([held, chunk]) : chunk;
    const end = findLastEventEnd(bytes);
    if (end < 0) {
      held = bytes;
      return undefined;
    }
    const complete = end === bytes.length ? bytes : bytes.subarray(0, end);
    held = end === bytes.length ? undefined : bytes.subarray(end);
    const shown = complete.includes(hidden.marker) ? withoutHidden(complete, hidden) : complete;
    const written = shown.length > 0 ? onBytes(shown) : undefined;
    tap.push(complete);
    return written;
  });
  if (held) {
    const written = onBytes(held);
    tap.push(held);
    await written;
  }
  tap.end();
}

/** The events of `bytes` (whole events) but the hidden ones, as SSE text. */
function withoutHidden(bytes: Buffer, hidden: HiddenEvents): string {
  return parseSseEvents(bytes)
    .filter((event) => !hidden.test(event))
    .map((event) => (event.unframed ? `${event.data}\n` : formatSseEvent(event)))
    .join('');
}

/** Bytes kept as they came, decoded into a response only when asked. */
interface PassthroughTap extends StreamCollector {
  push(bytes: Buffer): void;
  end(): void;
}

/**
 * How many undecoded bytes a tap holds at most. A usual answer stays below and is never decoded
 * unless asked; a very long one is decoded as it goes past this, so that what it holds is the
 * collected response, not every byte of every event (tens of MB for a long generation).
 */
export const TAP_MAX_PENDING_BYTES = 1024 * 1024;

/** Looked for in every upstream read: as bytes, not a string converted again on each search. */
const ERROR_WORD = Buffer.from('error');

export function createPassthroughTap(createDecoder: () => StreamDecoder, maxPendingBytes = TAP_MAX_PENDING_BYTES): PassthroughTap {
  // What decodes the bytes is made on first use: most taps are never read (a quiet log, a stream
  // that ended well), and an open stream should hold no more than its bytes.
  let decoding: { parser: SseParser; decoder: StreamDecoder; collector: StreamCollector } | undefined;
  const decodingOf = () => {
    if (!decoding) {
      const decoder = createDecoder();
      const collector = createStreamCollector();
      const parser = createSseParser((event) => {
        for (const part of decoder.decode(event)) collector.add(part);
      });
      decoding = { parser, decoder, collector };
    }
    return decoding;
  };
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let ended = false;
  let flushed = false;
  // Every protocol's error event names itself "error": bytes without the word hold none.
  let mayHoldError = false;
  const catchUp = () => {
    const { parser, decoder, collector } = decodingOf();
    for (const bytes of pending) parser.feed(bytes);
    pending = [];
    pendingBytes = 0;
    if (ended && !flushed) {
      flushed = true;
      parser.end();
      for (const part of decoder.end()) collector.add(part);
    }
    return collector;
  };
  return {
    push(bytes) {
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (!mayHoldError && bytes.includes(ERROR_WORD)) mayHoldError = true;
      if (pendingBytes > maxPendingBytes) catchUp();
    },
    end() {
      ended = true;
    },
    add: (part) => decodingOf().collector.add(part),
    result: () => catchUp().result(),
    error: () => (mayHoldError ? catchUp().error() : undefined),
  };
}
