import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { listEntryFiles, parseEntries, readLogFileFrom, type RequestLogEntry } from './request-log.js';

/**
 * Follows the log as a server appends to it, in this process or another: each `poll` returns the
 * entries written since the last one. It reads files by offset (a file only grows until pruned),
 * so it never reads an entry twice, and it holds back a line still being written.
 */
export class RequestLogFollower {
  #directory: string;
  #offsets = new Map<string, number>();

  constructor(directory: string) {
    this.#directory = directory;
  }

  /** Starts at the current end of every file: only entries written from now on come out. */
  async skipExisting(): Promise<void> {
    for (const file of await listEntryFiles(this.#directory)) this.#offsets.set(file.name, (await stat(join(this.#directory, file.name))).size);
  }

  async poll(): Promise<RequestLogEntry[]> {
    const entries: RequestLogEntry[] = [];
    const files = await listEntryFiles(this.#directory);
    const present = new Set<string>();
    for (const file of files) {
      present.add(file.name);
      const offset = this.#offsets.get(file.name) ?? 0;
      const text = await readLogFileFrom(join(this.#directory, file.name), offset);
      if (text === undefined || text.length === 0) continue;
      const consumed = parseEntries(text, undefined, entries);
      this.#offsets.set(file.name, offset + Buffer.byteLength(text.slice(0, consumed)));
    }
    for (const name of this.#offsets.keys()) if (!present.has(name)) this.#offsets.delete(name);
    return entries;
  }
}
