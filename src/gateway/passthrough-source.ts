import { createStreamCollector, type StreamCollector } from '../core/collect-stream.js';
import { GatewayError } from '../core/gateway-error.js';
import type { GenerateResponse } from '../core/generate-response.js';
import type { StreamPart } from '../core/stream-part.js';
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

interface PassthroughOptions {
  body: UpstreamBody;
  /** Made only if the tap is ever decoded. */
  createDecoder: () => StreamDecoder;
  /** The upstream protocol's completion rule (`ProtocolCodec.endsStream`). */
  endsStream: (event: SseEvent) => boolean;
  /** Keys to blank out of an upstream's error event (which may quote one) before anyone sees it. */
  secrets: () => readonly string[];
  hidden?: HiddenEvents;
  failure: (error: unknown) => GatewayError;
}

export function createPassthroughSource(options: PassthroughOptions): PassthroughSource {
  return new ForwardedStream(options);
}

/**
 * Writes the upstream's bytes on as they arrive, keeping each in the tap. Bytes go out by whole
 * events: a read that ends inside an event holds its rest back until the event's blank line comes,
 * so that a stream cut inside an event never hands the client half an event, and hidden events can
 * be told apart. At the end, the stream must have ended with its protocol's terminal event: if not,
 * it throws the failure (the tap decodes what came, for the record), which the client then gets
 * as an error event in its protocol.
 *
 * A class, not a factory of closures: it lives as long as its stream, and what runs per read is
 * a method (CONTRIBUTING.md, "Code").
 */
class ForwardedStream implements PassthroughSource {
  readonly tap: BytesTap;
  #options: PassthroughOptions;
  #onBytes: ((bytes: Buffer | string) => Promise<void> | void) | undefined;
  /** The rest of a read that ended inside an event. */
  #held: Buffer | undefined;
  // The last two pieces sent (whole events each): a complete stream's terminal event is in them.
  #last: Buffer | undefined;
  #beforeLast: Buffer | undefined;

  constructor(options: PassthroughOptions) {
    this.#options = options;
    this.tap = new BytesTap(options.createDecoder, TAP_MAX_PENDING_BYTES);
  }

  usage(): Usage {
    return this.tap.usage();
  }

  events(): readonly Buffer[] | undefined {
    return this.tap.undecoded();
  }

  run(onBytes: (bytes: Buffer | string) => Promise<void> | void): Promise<void> {
    this.#onBytes = onBytes;
    return this.#forward().catch((error: unknown) => {
      throw GatewayError.is(error) ? error : this.#options.failure(error);
    });
  }

  async #forward(): Promise<void> {
    const { tap } = this;
    await this.#options.body.consume(this.#read.bind(this));
    // What is left is an event cut short (or a bare JSON error, which Gemini writes unframed): decoded
    // for the record, and reported to the client as an error event of its own protocol.
    let held = this.#held;
    if (held) tap.push((held = withoutSecrets(held, this.#options.secrets)));
    tap.end();
    const { endsStream } = this.#options;
    if (held === undefined && (endsWithTerminalEvent(this.#last, endsStream) || endsWithTerminalEvent(this.#beforeLast, endsStream))) return;
    // The decoder has the last word: it names the upstream's own error, a cut event, or an early end.
    const failure = tap.failure();
    if (failure) throw failure;
    // A whole last event that only lacked its blank line: the client gets it, with one.
    if (held) await this.#onBytes!(held.at(-1) === 0x0a ? `${held.toString('utf8')}\n` : `${held.toString('utf8')}\n\n`);
  }

  /** One network read: its whole events to the client, then to the tap. */
  #read(chunk: Buffer): Promise<void> | void {
    const held = this.#held;
    const bytes = held ? Buffer.concat([held, chunk]) : chunk;
    const end = findLastEventEnd(bytes);
    if (end < 0) {
      this.#held = bytes;
      return undefined;
    }
    const complete = withoutSecrets(end === bytes.length ? bytes : bytes.subarray(0, end), this.#options.secrets);
    this.#held = end === bytes.length ? undefined : bytes.subarray(end);
    const { hidden } = this.#options;
    const shown = hidden && complete.includes(hidden.marker) ? withoutHidden(complete, hidden) : complete;
    // The client's bytes first, the tap's bookkeeping after.
    const written = shown.length > 0 ? this.#onBytes!(shown) : undefined;
    this.tap.push(complete);
    this.#beforeLast = this.#last;
    this.#last = complete;
    return written;
  }
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
  return new BytesTap(createDecoder, maxPendingBytes);
}

/** A class, not a factory of closures: it lives as long as its stream, and `push` runs per read (CONTRIBUTING.md, "Code"). */
class BytesTap implements PassthroughTap {
  #createDecoder: () => StreamDecoder;
  #maxPendingBytes: number;
  // What decodes the bytes is made on first use: most taps are never read (a quiet log, a stream
  // that ended well), and an open stream should hold no more than its bytes.
  #decoding: { parser: SseParser; decoder: StreamDecoder; collector: StreamCollector } | undefined;
  // The pieces that carry a stream's usage: its first, and its last two.
  #first: Buffer | undefined;
  #last: Buffer | undefined;
  #beforeLast: Buffer | undefined;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #ended = false;
  #flushed = false;
  // Every protocol's error event names itself "error": bytes without the word hold none.
  #mayHoldError = false;

  constructor(createDecoder: () => StreamDecoder, maxPendingBytes: number) {
    this.#createDecoder = createDecoder;
    this.#maxPendingBytes = maxPendingBytes;
  }

  push(bytes: Buffer): void {
    if (this.#first === undefined) this.#first = bytes;
    else {
      this.#beforeLast = this.#last;
      this.#last = bytes;
    }
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.length;
    if (!this.#mayHoldError && namesError(bytes)) this.#mayHoldError = true;
    if (this.#pendingBytes > this.#maxPendingBytes) this.#catchUp();
  }

  end(): void {
    this.#ended = true;
  }

  add(part: StreamPart): void {
    this.#decodingOf().collector.add(part);
  }

  usage(): Usage {
    const first = this.#first;
    if (this.#decoding || first === undefined) return this.#catchUp().result().usage;
    let usage: Usage | undefined;
    try {
      usage = collectEvents(this.#createDecoder(), [first, this.#beforeLast, this.#last]).usage;
    } catch {
      // Events out of their context that a decoder refuses: the whole stream says it.
    }
    return usage && (usage.input.total !== undefined || usage.output.total !== undefined) ? usage : this.#catchUp().result().usage;
  }

  result(): GenerateResponse {
    return this.#catchUp().result();
  }

  error(): GatewayError | undefined {
    return this.#mayHoldError ? this.#catchUp().error() : undefined;
  }

  failure(): GatewayError | undefined {
    return this.#catchUp().error();
  }

  undecoded(): readonly Buffer[] | undefined {
    return this.#decoding ? undefined : this.#pending;
  }

  #decodingOf(): { parser: SseParser; decoder: StreamDecoder; collector: StreamCollector } {
    if (!this.#decoding) {
      const decoder = this.#createDecoder();
      const collector = createStreamCollector();
      const parser = createSseParser((event) => {
        for (const part of decoder.decode(event)) collector.add(part);
      });
      this.#decoding = { parser, decoder, collector };
    }
    return this.#decoding;
  }

  #catchUp(): StreamCollector {
    const { parser, decoder, collector } = this.#decodingOf();
    for (const bytes of this.#pending) parser.feed(bytes);
    this.#pending = [];
    this.#pendingBytes = 0;
    if (this.#ended && !this.#flushed) {
      this.#flushed = true;
      parser.end();
      for (const part of decoder.end()) collector.add(part);
    }
    return collector;
  }
}
