import { open, type FileHandle } from 'node:fs/promises';

/**
 * A file kept open for appending, made with `mode` when it does not exist. An append is one write,
 * where `appendFile` opens, writes and closes: three trips through libuv's thread pool, each
 * waking one of its threads and then the event loop. For the request log's ten writes a second,
 * keeping its file open halved the pool threads' CPU per stream at c=10 (bench/FINDINGS.md).
 * A failed append closes the file: the next one opens it again.
 */
export class AppendOnlyFile {
  readonly path: string;
  readonly #mode: number;
  #handle: Promise<FileHandle> | undefined;

  constructor(path: string, mode: number) {
    this.path = path;
    this.#mode = mode;
  }

  async append(bytes: Uint8Array): Promise<void> {
    this.#handle ??= open(this.path, 'a', this.#mode);
    try {
      const handle = await this.#handle;
      // Opened for appending: every write goes to the end, whatever else writes to the file.
      for (let written = 0; written < bytes.length; ) {
        written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
      }
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /** Closes the file (a later append opens it again). */
  async close(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.then(
      (opened) => opened.close().catch(() => undefined),
      () => undefined,
    );
  }
}
