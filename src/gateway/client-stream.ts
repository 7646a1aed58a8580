import type { ClientConnection } from './client-connection.js';

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

export function createClientStream(options: {
  sink: ClientSink;
  client: ClientConnection;
  keepAlive?: () => string;
  keepAliveMs?: number;
  headersWaitMs?: number;
}): ClientStream {
  const { sink, client, keepAlive } = options;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  let ended = false;
  let started = false;
  let wroteSinceTick = false;
  let waiting: (() => void) | undefined;
  const release = () => {
    const resolve = waiting;
    if (!resolve) return;
    waiting = undefined;
    sink.off('drain', release);
    resolve();
  };
  let close!: () => void;
  const closed = new Promise<void>((resolve) => (close = resolve));

  // One timer, touched only when it fires (never per write): first for the headers, then for the
  // keep-alives.
  const tick = () => {
    timer = undefined;
    if (ended || client.gone) return;
    if (!started) {
      started = true;
      sink.flushHeaders?.();
    } else if (!wroteSinceTick && keepAlive) sink.write(keepAlive());
    wroteSinceTick = false;
    if (keepAlive) timer = setTimeout(tick, keepAliveMs).unref();
  };
  let timer: NodeJS.Timeout | undefined = setTimeout(tick, Math.min(options.headersWaitMs ?? HEADERS_WAIT_MS, keepAlive ? keepAliveMs : Infinity)).unref();
  const stopListening = client.onGone(() => {
    clearTimeout(timer);
    release();
    close();
  });

  return {
    write(chunk) {
      if (ended || client.gone) return undefined;
      if (!started) {
        started = true;
        // The headers go with this write; without keep-alives the timer has nothing left to do.
        if (!keepAlive) clearTimeout(timer);
      }
      wroteSinceTick = true;
      if (writeNow(sink, chunk)) return undefined;
      return new Promise<void>((resolve) => {
        waiting = resolve;
        sink.once('drain', release);
      });
    },
    end(last) {
      if (ended) return;
      if (last && !client.gone) {
        started = true;
        // Node holds it until the next tick; the response's end comes before that and sends both.
        sink.write(last);
      }
      ended = true;
      clearTimeout(timer);
      stopListening();
      release();
      close();
    },
    closed,
  };
}

/**
 * Writes `chunk` and sends it at once. Node corks a response's socket on a write and uncorks it on
 * the next tick, to send a tick's writes together; a stream writes once per upstream read, so the
 * cork only held its event back behind the rest of the read's work (the collector, the rest of
 * undici's parse), and the client's wake-up came later (bench/README.md, fifth pass). Only the cork
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
