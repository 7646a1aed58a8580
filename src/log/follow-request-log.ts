import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { listEntryFiles, parseEntries, type RequestLogEntry } from './request-log.js';

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
    for (const file of await listEntryFiles(this.#directory)) this.#offsets.set(file.name, await sizeOf(join(this.#directory, file.name)));
  }

  async poll(): Promise<RequestLogEntry[]> {
    const entries: RequestLogEntry[] = [];
    const files = await listEntryFiles(this.#directory);
    const present = new Set<string>();
    for (const file of files) {
      present.add(file.name);
      const offset = this.#offsets.get(file.name) ?? 0;
      const text = await readFrom(join(this.#directory, file.name), offset);
      if (text === undefined || text.length === 0) continue;
      const consumed = parseEntries(text, undefined, entries);
      this.#offsets.set(file.name, offset + Buffer.byteLength(text.slice(0, consumed)));
    }
    for (const name of this.#offsets.keys()) if (!present.has(name)) this.#offsets.delete(name);
    return entries;
  }
}

async function sizeOf(path: string): Promise<number> {
  const handle = await open(path, 'r');
  try {
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

async function readFrom(path: string, offset: number): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const size = (await handle.stat()).size;
    if (size <= offset) return '';
    const buffer = Buffer.alloc(size - offset);
    await handle.read(buffer, 0, buffer.length, offset);
    // A line cut inside a character is held back whole with the rest of its line.
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}
