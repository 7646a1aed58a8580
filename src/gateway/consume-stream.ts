import type { Readable } from 'node:stream';

/**
 * Reads a stream chunk by chunk with `data` events (no promise per chunk, unlike `for await`),
 * pausing while `onChunk`'s promise is pending: the client's socket sets the pace.
 */
export function consumeStream(stream: Readable, onChunk: (chunk: Buffer) => Promise<void> | void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      let pending: Promise<void> | void;
      try {
        pending = onChunk(chunk);
      } catch (error) {
        cleanUp();
        stream.destroy();
        return reject(error);
      }
      if (pending) {
        stream.pause();
        pending.then(
          () => stream.resume(),
          (error: unknown) => {
            cleanUp();
            stream.destroy();
            reject(error);
          },
        );
      }
    };
    const onEnd = () => {
      cleanUp();
      resolve();
    };
    const onError = (error: Error) => {
      cleanUp();
      reject(error);
    };
    // A body that closes without `end` was cut (the upstream went away mid-stream).
    const onClose = () => {
      if (stream.readableEnded) return;
      cleanUp();
      reject(Object.assign(new Error('The upstream closed the stream before its end.'), { code: 'UND_ERR_SOCKET' }));
    };
    const cleanUp = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
    stream.once('close', onClose);
  });
}
