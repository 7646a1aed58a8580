import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type { ClientSink } from '../gateway/client-stream.js';
import type { StreamBody } from '../gateway/stream-to-client.js';

/**
 * A stream body as a Node Readable, where there is no Node response to write into (h3 on another
 * runtime pipes it). The body waits while the reader is full, and goes on when it reads again.
 */
export function streamBodyReadable(body: StreamBody): Readable {
  const drain = new EventEmitter();
  const readable = new Readable({ read: () => drain.emit('drain') });
  const sink: ClientSink = {
    write: (chunk) => readable.push(chunk),
    once: (event, listener) => drain.once(event, listener),
    off: (event, listener) => drain.off(event, listener),
  };
  void body.pipeTo(sink).then(() => readable.push(null));
  return readable;
}
