import { mkdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { AppendOnlyFile } from './append-only-file.js';
import { ByteBatch } from './byte-batch.js';
import { encodeEntryLine } from './encode-entry-line.js';
import { BODY_FILE_SUFFIX, ENTRY_FILE_SUFFIX, fileStem, listEntryFiles, type RequestLogEntry } from './request-log.js';

/** The three bodies of one request, kept when `log.bodies` is on (already redacted and capped). */
export interface RequestLogBodies {
  request: string;
  upstream_request: string | null;
  response: string;
}

export interface RequestLogWriterOptions {
  directory: string;
  maxAgeMs: number;
  maxBytes: number;
  now?: () => number;
  /** A write that failed: the log is best effort, a request never waits for it nor fails with it. */
  onError?: (error: unknown) => void;
}

/** How long entries wait to be written: one append per this many ms under load, not one per request. */
const FLUSH_DELAY_MS = 100;
/** Bytes waiting beyond this many are dropped (a disk that stopped answering must not grow the memory). */
const MAX_PENDING_BYTES = 64 * 2 ** 20;
/** How long the current file is written through one open: one removed from outside is made again after this. */
const REOPEN_INTERVAL_MS = 10_000;
/** How often the log is pruned while the server runs. */
const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Appends entries to the log off the request path: `append` only queues the entry's line, as bytes
 * (`ByteBatch`: no object of the entry outlives the request); a timer writes the queue in one
 * write a little later, to the current file, kept open. Files are made 0600 (bodies and user names are private),
 * a new file is started when the current one reaches a tenth of `maxBytes` (so pruning by size
 * removes a tenth at a time), and files older than `maxAgeMs` or beyond `maxBytes` are removed.
 */
export class RequestLogWriter {
  readonly directory: string;
  #options: RequestLogWriterOptions;
  #now: () => number;
  #entries = new ByteBatch();
  #bodies = new ByteBatch();
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #stem: string | undefined;
  /** The current file's entries and bodies, kept open while it is written. */
  #entryFile: AppendOnlyFile | undefined;
  #bodyFile: AppendOnlyFile | undefined;
  #openedAt = -Infinity;
  #stemBytes = 0;
  #fileMaxBytes: number;
  #lastPrune = 0;
  #ready: Promise<void> | undefined;
  #dropped = 0;

  constructor(options: RequestLogWriterOptions) {
    this.directory = options.directory;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#fileMaxBytes = Math.max(64 * 1024, Math.floor(options.maxBytes / 10));
  }

  append(entry: RequestLogEntry, bodies?: RequestLogBodies): void {
    if (this.#entries.length + this.#bodies.length >= MAX_PENDING_BYTES) {
      this.#dropped += 1;
      return;
    }
    this.#entries.addLine(encodeEntryLine(entry));
    if (bodies) this.#bodies.addLine(JSON.stringify({ request_id: entry.request_id, time: entry.time, request: bodies.request, upstream_request: bodies.upstream_request, response: bodies.response }));
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        void this.flush();
      }, FLUSH_DELAY_MS);
      // A pending write must not keep a finished process alive (`close` flushes it).
      this.#timer.unref();
    }
  }

  /** Writes what is queued; settles when it is on disk. */
  flush(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#entries.length === 0) return this.#writing;
    const lines = this.#entries.take();
    const bodyLines = this.#bodies.length > 0 ? this.#bodies.take() : undefined;
    this.#writing = this.#writing
      .then(() => this.#write(lines, bodyLines))
      .catch((error: unknown) => this.#options.onError?.(error))
      .finally(() => {
        // Written (or given up): the batches may fill these buffers again.
        this.#entries.release(lines);
        if (bodyLines) this.#bodies.release(bodyLines);
      });
    return this.#writing;
  }

  /** Writes what is queued and closes the files. */
  async close(): Promise<void> {
    await this.flush();
    await this.#closeFiles();
  }

  async #closeFiles(): Promise<void> {
    await this.#entryFile?.close();
    await this.#bodyFile?.close();
    this.#entryFile = undefined;
    this.#bodyFile = undefined;
  }

  async #write(lines: Buffer, bodyLines: Buffer | undefined): Promise<void> {
    const now = this.#now();
    if (now - this.#openedAt >= REOPEN_INTERVAL_MS) {
      // Opened again now and then: a file (or the folder) removed from outside is made again.
      await this.#closeFiles();
      this.#ready = undefined;
      this.#openedAt = now;
    }
    this.#ready ??= mkdir(this.directory, { recursive: true, mode: 0o700 }).then(() => undefined);
    await this.#ready;
    if (this.#stem === undefined || this.#stemBytes >= this.#fileMaxBytes) {
      await this.#closeFiles();
      // Named after the time of its first write: every entry of a file arrived before the next file's name.
      this.#stem = fileStem(now);
      this.#stemBytes = 0;
    }
    if (this.#dropped > 0) {
      this.#options.onError?.(new Error(`${this.#dropped} request log entries dropped: the disk did not keep up`));
      this.#dropped = 0;
    }
    this.#entryFile ??= new AppendOnlyFile(join(this.directory, this.#stem + ENTRY_FILE_SUFFIX), 0o600);
    await this.#entryFile.append(lines);
    this.#stemBytes += lines.length;
    if (bodyLines) {
      this.#bodyFile ??= new AppendOnlyFile(join(this.directory, this.#stem + BODY_FILE_SUFFIX), 0o600);
      await this.#bodyFile.append(bodyLines);
      this.#stemBytes += bodyLines.length;
    }
    if (now - this.#lastPrune >= PRUNE_INTERVAL_MS) {
      this.#lastPrune = now;
      await pruneRequestLog(this.directory, { maxAgeMs: this.#options.maxAgeMs, maxBytes: this.#options.maxBytes, now, keep: this.#stem });
    }
  }
}

/**
 * Removes the log's files whose entries are all older than `maxAgeMs` (by the time of their last
 * write), then the oldest files until the log fits in `maxBytes`. `keep` (the file being written)
 * stays whatever its size.
 */
export async function pruneRequestLog(directory: string, options: { maxAgeMs: number; maxBytes: number; now: number; keep?: string }): Promise<string[]> {
  const files = await listEntryFiles(directory);
  const sized: { stem: string; bytes: number; modified: number }[] = [];
  for (const file of files) {
    const stem = file.name.slice(0, -ENTRY_FILE_SUFFIX.length);
    const entries = await statOf(join(directory, file.name));
    if (!entries) continue;
    const bodies = await statOf(join(directory, stem + BODY_FILE_SUFFIX));
    sized.push({ stem, bytes: entries.size + (bodies?.size ?? 0), modified: Math.max(entries.mtimeMs, bodies?.mtimeMs ?? 0) });
  }
  let total = sized.reduce((sum, file) => sum + file.bytes, 0);
  const removed: string[] = [];
  for (const file of sized) {
    if (file.stem === options.keep) break;
    const tooOld = options.now - file.modified > options.maxAgeMs;
    if (!tooOld && total <= options.maxBytes) continue;
    await removeQuietly(join(directory, file.stem + ENTRY_FILE_SUFFIX));
    await removeQuietly(join(directory, file.stem + BODY_FILE_SUFFIX));
    total -= file.bytes;
    removed.push(file.stem);
  }
  return removed;
}

async function statOf(path: string) {
  try {
    return await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function removeQuietly(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
