import { PassThrough, type Readable } from 'node:stream';
import type { ClientConnection } from './client-connection.js';

/**
 * The response body of a stream client. Writes wait for the socket when it is full (never
 * buffering a whole stream), and become no-ops once the client is gone, so the upstream can be
 * drained into a recovery record. Sends a keep-alive when nothing was written for a while.
 */
export interface ClientStream {
  readonly body: Readable;
  /** Whether the client has gone away. */
  readonly gone: boolean;
  /** Resolves at once, or when the socket can take more (or the client left). */
  write(bytes: string | Buffer): Promise<void> | undefined;
  end(): void;
}

export function createClientStream(options: {
  client: ClientConnection;
  keepAlive?: () => string;
  keepAliveMs?: number;
}): ClientStream {
  const body = new PassThrough({ highWaterMark: 64 * 1024 });
  // A destroyed response (client gone) must not raise an unhandled error.
  body.on('error', () => undefined);
  let gone = options.client.gone;
  let waiting: (() => void) | undefined;
  const onAbort = () => {
    gone = true;
    waiting?.();
    clearTimeout(timer);
  };
  const stopListening = options.client.onGone(onAbort);

  let timer: NodeJS.Timeout | undefined;
  if (options.keepAlive) {
    const keepAlive = options.keepAlive;
    timer = setTimeout(function sendKeepAlive() {
      if (gone || body.writableEnded) return;
      body.write(keepAlive());
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
      if (gone || body.destroyed || body.writableEnded) return undefined;
      timer?.refresh();
      if (body.write(bytes)) return undefined;
      return new Promise<void>((resolve) => {
        const done = () => {
          waiting = undefined;
          body.off('drain', done);
          body.off('close', done);
          resolve();
        };
        waiting = done;
        body.once('drain', done);
        body.once('close', done);
      });
    },
    end() {
      clearTimeout(timer);
      stopListening();
      if (!body.destroyed && !body.writableEnded) body.end();
    },
  };
}
