import type { ClientConnection, ClientGoneListener } from './client-connection.js';

/**
 * Where a stream's bytes go: the Node response itself, with nothing in between, or anything with
 * the same members. `write` returns false when the socket is full; `drain` says it can take more.
 */
export interface ClientSink {
  write(chunk: string | Buffer): boolean;
  once(event: 'drain', listener: () => void): unknown;
  off(event: 'drain', listener: () => void): unknown;
  /** Sends the status line and headers at once, without waiting for a first write to carry them. */
  flushHeaders?(): void;
  /** The response's socket, when there is one: a write is sent from it at once (see `writeNow`). */
  readonly socket?: { readonly writableCorked: number; uncork(): void } | null;
  /**
   * A Node response's own chunked framing of the body, on when it chose `Transfer-Encoding:
   * chunked` for the headers it stored: the stream takes it over (see `SinkClientStream`).
   */
  chunkedEncoding?: boolean;
}

/**
 * A stream client's side of the connection. Writes go straight to the sink, wait while the socket
 * is full (a stream is never buffered whole), and become no-ops once the client is gone, so the
 * upstream can be drained into a recovery record.
 *
 * The headers go out with the first write (one packet, one syscall). Should nothing be written
 * within `headersWaitMs` (a model slow to its first token), they are sent alone, so the client
 * knows the request was taken. With `keepAlive`, a keep-alive is written after every
 * `keepAliveMs` period in which nothing else was.
 */
export interface ClientStream {
  /** Resolves at once, or when the socket can take more (or the client left). */
  write(chunk: string | Buffer): Promise<void> | undefined;
  /**
   * The stream is over for the client: nothing more is written. `last`, the stream's closing
   * event, is written without being sent on its own: the end of the response, which follows it,
   * takes it along (one packet and one wake-up of the client instead of two).
   */
  end(last?: string): void;
  /** Resolves once the stream has ended or the client has gone away. */
  readonly closed: Promise<void>;
}

/** How long headers wait for the first event to carry them. */
const HEADERS_WAIT_MS = 100;

export interface ClientStreamOptions {
  sink: ClientSink;
  client: ClientConnection;
  keepAlive?: () => string;
  keepAliveMs?: number;
  headersWaitMs?: number;
  /** Called once, at the first write of the body (the time to first byte). */
  onFirstWrite?: () => void;
}

export function createClientStream(options: ClientStreamOptions): ClientStream {
  return new SinkClientStream(options);
}

/**
 * A class, not a factory of closures: it lives as long as the stream (CONTRIBUTING.md, "Code").
 * Its one timer is touched only when it fires (never per write): first for the headers, then for
 * the keep-alives.
 *
 * On a chunked Node response it frames the chunks itself. Node frames each write as four socket
 * writes (size, line end, data, line end), queued under a cork and sent together as one `writev`:
 * bookkeeping of about 1.7 KB per event, the largest allocation of a stream, and about 5 % of a
 * translated stream's CPU (bench/FINDINGS.md). Framed here, an event is one string and
 * one socket write, and the stream ends with the last chunk (`0`), which Node then leaves out.
 * `chunkedEncoding` is the response's own switch for its framing (typed in @types/node, not in
 * Node's docs): a test reads the bytes on the wire, so a Node that framed again would fail it.
 */
class SinkClientStream implements ClientStream, ClientGoneListener {
  readonly closed: Promise<void>;
  #close!: () => void;
  #sink: ClientSink;
  #client: ClientConnection;
  #keepAlive: (() => string) | undefined;
  #keepAliveMs: number;
  /** The stream frames its chunks itself (the response is chunked). */
  #framed = false;
  #ended = false;
  #started = false;
  #wroteSinceTick = false;
  #timer: NodeJS.Timeout | undefined;
  /** Resolves the write waiting for `drain`, if one is. */
  #waiting: (() => void) | undefined;
  /** The `drain` listener, made the first time the socket is full. */
  #onDrain: (() => void) | undefined;
  #onFirstWrite: (() => void) | undefined;

  constructor(options: ClientStreamOptions) {
    this.#sink = options.sink;
    this.#client = options.client;
    this.#keepAlive = options.keepAlive;
    this.#keepAliveMs = options.keepAliveMs ?? 15_000;
    this.#onFirstWrite = options.onFirstWrite;
    if (this.#sink.chunkedEncoding === true) {
      this.#sink.chunkedEncoding = false;
      this.#framed = true;
    }
    this.closed = new Promise<void>((resolve) => (this.#close = resolve));
    const firstWaitMs = Math.min(options.headersWaitMs ?? HEADERS_WAIT_MS, this.#keepAlive ? this.#keepAliveMs : Infinity);
    this.#timer = setTimeout(tick, firstWaitMs, this).unref();
    this.#client.onGone(this);
  }

  write(chunk: string | Buffer): Promise<void> | undefined {
    if (this.#ended || this.#client.gone || chunk.length === 0) return undefined;
    if (!this.#started) {
      this.#started = true;
      // The headers go with this write; without keep-alives the timer has nothing left to do.
      if (!this.#keepAlive) clearTimeout(this.#timer);
    }
    this.#wroteSinceTick = true;
    if (this.#onFirstWrite) {
      this.#onFirstWrite();
      this.#onFirstWrite = undefined;
    }
    if (writeNow(this.#sink, this.#frame(chunk))) return undefined;
    return new Promise<void>((resolve) => {
      this.#waiting = resolve;
      this.#sink.once('drain', (this.#onDrain ??= () => this.#release()));
    });
  }

  end(last?: string): void {
    if (this.#ended) return;
    const closing = this.#framed ? `${last ? frameChunk(last) : ''}${LAST_CHUNK}` : last;
    if (closing && !this.#client.gone) {
      this.#started = true;
      // Node holds it until the next tick; the response's end comes before that and sends both.
      this.#sink.write(closing);
    }
    this.#ended = true;
    clearTimeout(this.#timer);
    this.#client.offGone(this);
    this.#release();
    this.#close();
  }

  clientGone(): void {
    clearTimeout(this.#timer);
    this.#release();
    this.#close();
  }

  /** The timer fired: send the headers if nothing carried them yet, or a keep-alive if nothing was written. */
  tick(): void {
    this.#timer = undefined;
    if (this.#ended || this.#client.gone) return;
    if (!this.#started) {
      this.#started = true;
      this.#sink.flushHeaders?.();
    } else if (!this.#wroteSinceTick && this.#keepAlive) this.#sink.write(this.#frame(this.#keepAlive()));
    this.#wroteSinceTick = false;
    if (this.#keepAlive) this.#timer = setTimeout(tick, this.#keepAliveMs, this).unref();
  }

  /** `chunk` as the response's body takes it: framed as a chunk when the stream does the framing. */
  #frame(chunk: string): string;
  #frame(chunk: string | Buffer): string | Buffer;
  #frame(chunk: string | Buffer): string | Buffer {
    return this.#framed ? frameChunk(chunk) : chunk;
  }

  #release(): void {
    const resolve = this.#waiting;
    if (!resolve) return;
    this.#waiting = undefined;
    this.#sink.off('drain', this.#onDrain!);
    resolve();
  }
}

/** The last chunk of a chunked body (RFC 9112, section 7.1), with no trailers. */
const LAST_CHUNK = '0\r\n\r\n';
const LINE_END = Buffer.from('\r\n');

/** `chunk` as one chunk of a chunked body: its size in hex, a line end, the data, a line end. */
function frameChunk(chunk: string): string;
function frameChunk(chunk: string | Buffer): string | Buffer;
function frameChunk(chunk: string | Buffer): string | Buffer {
  // Nothing at all: a chunk of size 0 would end the body.
  if (chunk.length === 0) return chunk;
  if (typeof chunk === 'string') return `${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`;
  return Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`, 'latin1'), chunk, LINE_END]);
}

/** A timer's callback, shared: the stream comes as the timer's argument, so no stream makes a closure for it. */
function tick(stream: SinkClientStream): void {
  stream.tick();
}

/**
 * Writes `chunk` and sends it at once. Node corks a response's socket on a write and uncorks it on
 * the next tick, to send a tick's writes together; a stream writes once per upstream read, so the
 * cork only held its event back behind the rest of the read's work (the collector, the rest of
 * undici's parse), and the client's wake-up came later (bench/FINDINGS.md). Only the cork
 * this write added is taken off, never one somebody else holds; Node's own uncork on the next tick
 * then finds nothing to do.
 */
function writeNow(sink: ClientSink, chunk: string | Buffer): boolean {
  const socket = sink.socket;
  const corked = socket ? socket.writableCorked : 0;
  const accepted = sink.write(chunk);
  if (socket && socket.writableCorked > corked) socket.uncork();
  return accepted;
}
