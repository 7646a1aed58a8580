import { Readable } from 'node:stream';
import type { ClientConnection } from './client-connection.js';

/**
 * The response body of a stream client: a plain Readable fed by `write` (no Transform in between).
 * Writes wait when the socket is full (never buffering a whole stream), and become no-ops once the
 * client is gone, so the upstream can be drained into a recovery record. Sends a keep-alive when
 * nothing was written for a while.
 */
export interface ClientStream {
  readonly body: Readable;
  /** Whether the client has gone away. */
  readonly gone: boolean;
  /** Resolves at once, or when the socket can take more (or the client left). */
  write(bytes: string | Buffer): Promise<void> | undefined;
  end(): void;
}

export function createClientStream(options: { client: ClientConnection; keepAlive?: () => string; keepAliveMs?: number }): ClientStream {
  let waiting: (() => void) | undefined;
  const release = () => {
    const resolve = waiting;
    waiting = undefined;
    resolve?.();
  };
  // `read` is called when the consumer wants more: a waiting writer may go on.
  const body = new Readable({ highWaterMark: 64 * 1024, read: release });
  // A destroyed response (client gone) must not raise an unhandled error.
  body.on('error', () => undefined);
  body.once('close', release);
  let ended = false;
  let gone = options.client.gone;
  let timer: NodeJS.Timeout | undefined;
  const stopListening = options.client.onGone(() => {
    gone = true;
    clearTimeout(timer);
    release();
  });
  const open = () => !gone && !ended && !body.destroyed;

  if (options.keepAlive) {
    const keepAlive = options.keepAlive;
    timer = setTimeout(function sendKeepAlive() {
      if (!open()) return;
      body.push(keepAlive());
      timer?.refresh();
    }, options.keepAliveMs ?? 15_000);
    timer.unref();
  }

  return {
    body,
    get gone() {
      return gone || body.destroyed;
    },
    write(bytes) {
      if (!open()) return undefined;
      timer?.refresh();
      if (body.push(bytes)) return undefined;
      return new Promise<void>((resolve) => {
        waiting = resolve;
      });
    },
    end() {
      clearTimeout(timer);
      stopListening();
      if (!ended && !body.destroyed) body.push(null);
      ended = true;
      release();
    },
  };
}
