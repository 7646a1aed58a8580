import { createStreamCollector, type StreamCollector } from '../core/collect-stream.js';
import { GatewayError } from '../core/gateway-error.js';
import type { GenerateResponse } from '../core/generate-response.js';
import { holdsSecret, redactSecrets } from '../core/redact-secrets.js';
import type { HiddenEvents, StreamDecoder } from '../protocols/protocol-codec.js';
import type { Usage } from '../core/usage.js';
import type { UpstreamBody } from '../providers/upstream-client.js';
import { createSseParser, findLastEventEnd, parseSseEvents, type SseParser } from '../sse/parse-sse.js';
import type { SseEvent } from '../sse/sse-event.js';
import { formatSseEvent } from '../sse/write-sse.js';

/**
 * A same-protocol upstream stream: its bytes go to the client as they arrive, untouched (only
 * events the client did not ask for are taken out). Nothing is parsed on the way: the `tap` keeps
 * the bytes and decodes them only when someone asks (the request log, a recovery record).
 */
export interface PassthroughSource {
  run(onBytes: (bytes: Buffer | string) => Promise<void> | void): Promise<void>;
  readonly tap: StreamCollector;
  /** The stream's usage, read from the events that carry it without decoding the whole stream. */
  usage(): Usage;
  /**
   * Every event so far, as the upstream sent them (the hidden ones too), while none has been
   * decoded; undefined once the tap has decoded them (it holds the collected response then).
   */
  events(): readonly Buffer[] | undefined;
}

export function createPassthroughSource(options: {
  body: UpstreamBody;
  /** Made only if the tap is ever decoded. */
  createDecoder: () => StreamDecoder;
  /** The upstream protocol's completion rule (`ProtocolCodec.endsStream`). */
  endsStream: (event: SseEvent) => boolean;
  /** Keys to blank out of an upstream's error event (which may quote one) before anyone sees it. */
  secrets: () => readonly string[];
  hidden?: HiddenEvents;
  failure: (error: unknown) => GatewayError;
}): PassthroughSource {
  const tap = createPassthroughTap(options.createDecoder);
  return {
    tap,
    usage: () => tap.usage(),
    events: () => tap.undecoded(),
    run: (onBytes) =>
      forward(options.body, tap, options, onBytes).catch((error: unknown) => {
        throw GatewayError.is(error) ? error : options.failure(error);
      }),
  };
}

/**
 * Writes the upstream's bytes on as they arrive, keeping each in the tap. Bytes go out by whole
 * events: a read that ends inside an event holds its rest back until the event's blank line comes,
 * so that a stream cut inside an event never hands the client half an event, and hidden events can
 * be told apart. At the end, the stream must have ended with its protocol's terminal event: if not,
 * it throws the failure (the tap decodes what came, for the record), which the client then gets
 * as an error event in its protocol.
 */
async function forward(
  body: UpstreamBody,
  tap: PassthroughTap,
  options: { endsStream: (event: SseEvent) => boolean; secrets: () => readonly string[]; hidden?: HiddenEvents },
  onBytes: (bytes: Buffer | string) => Promise<void> | void,
): Promise<void> {
  const { hidden } = options;
  let held: Buffer | undefined;
  // The last two pieces sent (whole events each): a complete stream's terminal event is in them.
  let last: Buffer | undefined;
  let beforeLast: Buffer | undefined;
  await body.consume((chunk) => {
    const bytes = held ? Buffer.concat([held, chunk]) : chunk;
    const end = findLastEventEnd(bytes);
    if (end < 0) {
      held = bytes;
      return undefined;
    }
    const complete = withoutSecrets(end === bytes.length ? bytes : bytes.subarray(0, end), options.secrets);
    held = end === bytes.length ? undefined : bytes.subarray(end);
    const shown = hidden && complete.includes(hidden.marker) ? withoutHidden(complete, hidden) : complete;
    // The client's bytes first, the tap's bookkeeping after.
    const written = shown.length > 0 ? onBytes(shown) : undefined;
    tap.push(complete);
    beforeLast = last;
    last = complete;
    return written;
  });
  // What is left is an event cut short (or a bare JSON error, which Gemini writes unframed): decoded
  // for the record, and reported to the client as an error event of its own protocol.
  if (held) tap.push((held = withoutSecrets(held, options.secrets)));
  tap.end();
  if (held === undefined && (endsWithTerminalEvent(last, options.endsStream) || endsWithTerminalEvent(beforeLast, options.endsStream))) return;
  // The decoder has the last word: it names the upstream's own error, a cut event, or an early end.
  const failure = tap.failure();
  if (failure) throw failure;
  // A whole last event that only lacked its blank line: the client gets it, with one.
  if (held) await onBytes(held.at(-1) === 0x0a ? `${held.toString('utf8')}\n` : `${held.toString('utf8')}\n\n`);
}

/**
 * `bytes` with every key blanked out. Only an error event quotes a key, and every protocol's error
 * event names itself "error": bytes that do not name one are passed on as they are, unsearched.
 */
function withoutSecrets(bytes: Buffer, secrets: () => readonly string[]): Buffer {
  if (!namesError(bytes)) return bytes;
  const known = secrets();
  return holdsSecret(bytes, known) ? Buffer.from(redactSecrets(bytes.toString('utf8'), known)) : bytes;
}

/** Whether one of the events in `piece` (whole events) ends the stream, looked for from the last. */
function endsWithTerminalEvent(piece: Buffer | undefined, endsStream: (event: SseEvent) => boolean): boolean {
  if (!piece) return false;
  const events = parseSseEvents(piece);
  for (let index = events.length - 1; index >= 0; index -= 1) if (endsStream(events[index])) return true;
  return false;
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
  /**
   * The usage, from the first and the last two pieces only (every protocol reports it in its first
   * event, its last ones, or both); the whole stream is decoded only when they hold none.
   */
  usage(): Usage;
  end(): void;
  /** The stream's failure, decoding every byte to find it (`error` looks only where one may be). */
  failure(): GatewayError | undefined;
  /** The pieces pushed, while none has been decoded. */
  undecoded(): readonly Buffer[] | undefined;
}

/**
 * How many undecoded bytes a tap holds at most. A usual answer stays below and is never decoded
 * unless asked; a very long one is decoded as it goes past this, so that what it holds is the
 * collected response, not every byte of every event (tens of MB for a long generation).
 */
export const TAP_MAX_PENDING_BYTES = 1024 * 1024;

/** The response that `pieces` (whole events each, in order) make, decoded by a decoder of their own. */
export function collectEvents(decoder: StreamDecoder, pieces: readonly (Buffer | string | undefined)[]): GenerateResponse {
  const collector = createStreamCollector();
  const parser = createSseParser((event) => {
    for (const part of decoder.decode(event)) collector.add(part);
  });
  for (const piece of pieces) if (piece) parser.feed(piece);
  parser.end();
  for (const part of decoder.end()) collector.add(part);
  return collector.result();
}

/** Looked for in every upstream read: as bytes, not a string converted again on each search. */
const ERROR_WORD = Buffer.from('error');
/** What follows the word in a field that says there is no error. */
const NO_ERROR = Buffer.from('":null');

/**
 * Whether `bytes` may hold an error event: every protocol's error event names itself "error". A
 * Responses stream's events that carry the response say `"error":null`, which names none: taken
 * for one, every Responses stream passed through would be decoded whole at its end.
 */
function namesError(bytes: Buffer): boolean {
  for (let at = bytes.indexOf(ERROR_WORD); at !== -1; at = bytes.indexOf(ERROR_WORD, at + ERROR_WORD.length)) {
    const after = at + ERROR_WORD.length;
    if (after + NO_ERROR.length > bytes.length || bytes.compare(NO_ERROR, 0, NO_ERROR.length, after, after + NO_ERROR.length) !== 0) return true;
  }
  return false;
}

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
  // The pieces that carry a stream's usage: its first, and its last two.
  let first: Buffer | undefined;
  let last: Buffer | undefined;
  let beforeLast: Buffer | undefined;
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
      if (first === undefined) first = bytes;
      else {
        beforeLast = last;
        last = bytes;
      }
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (!mayHoldError && namesError(bytes)) mayHoldError = true;
      if (pendingBytes > maxPendingBytes) catchUp();
    },
    end() {
      ended = true;
    },
    add: (part) => decodingOf().collector.add(part),
    usage() {
      if (decoding || first === undefined) return catchUp().result().usage;
      let usage: Usage | undefined;
      try {
        usage = collectEvents(createDecoder(), [first, beforeLast, last]).usage;
      } catch {
        // Events out of their context that a decoder refuses: the whole stream says it.
      }
      return usage && (usage.input.total !== undefined || usage.output.total !== undefined) ? usage : catchUp().result().usage;
    },
    result: () => catchUp().result(),
    error: () => (mayHoldError ? catchUp().error() : undefined),
    failure: () => catchUp().error(),
    undecoded: () => (decoding ? undefined : pending),
  };
}
