import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** One request as the log keeps it: one JSON line per entry, field names as users read them. */
export interface RequestLogEntry {
  request_id: string;
  /** ISO 8601, when the request arrived. */
  time: string;
  user: string;
  /** The client's protocol. */
  protocol: string;
  endpoint: string;
  /** The model as the client asked for it. */
  model: string;
  /** The `provider/model` that answered; null for a local token count or a request refused before any attempt. */
  upstream: string | null;
  attempts: number;
  mode: 'passthrough' | 'translate' | 'mock' | null;
  /** The HTTP status the client got. */
  status: number;
  stream: boolean;
  duration_ms: number;
  ttfb_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cached_tokens: number | null;
  cache_write_tokens: number | null;
  reasoning_tokens: number | null;
  /** Null when no price is known for the upstream model. */
  cost_usd: number | null;
  interrupted_reason: string | null;
  /** The recovery record this request was answered from (resume on retry), instead of a model. */
  resumed_from: string | null;
  warnings: string[];
  user_agent: string | null;
}

/** Where the log lives under `$SWITCHYARD_HOME`. */
export function requestLogDirectory(home: string): string {
  return join(home, 'log');
}

/**
 * The log's files hold entries in the order they were written; each file is named after the time
 * of its first write (`2026-11-01T12-00-00-000Z.jsonl`), so names sort by time.
 */
export const ENTRY_FILE_SUFFIX = '.jsonl';
export const BODY_FILE_SUFFIX = '.bodies.jsonl';

/** The entry files of the log, oldest first, with the time each one starts at. */
export async function listEntryFiles(directory: string): Promise<{ name: string; startsAt: number }[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: { name: string; startsAt: number }[] = [];
  for (const name of names) {
    if (!name.endsWith(ENTRY_FILE_SUFFIX) || name.endsWith(BODY_FILE_SUFFIX)) continue;
    const startsAt = timeOfFileName(name);
    if (!Number.isNaN(startsAt)) files.push({ name, startsAt });
  }
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** `2026-11-01T12:00:00.000Z` → `2026-11-01T12-00-00-000Z` (no colons: Windows file names). */
export function fileStem(time: number): string {
  return new Date(time).toISOString().replace(/[:.]/g, '-');
}

function timeOfFileName(name: string): number {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z/.exec(name);
  return match ? Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`) : Number.NaN;
}

/**
 * The entries of the log, oldest first; with `since`, only those from that time on. Files that end
 * before `since` are not opened. A line cut short (the server stopped mid-write) or not an entry
 * is skipped: the log is read by people, and one bad line must not hide the rest.
 */
export async function readRequestLog(directory: string, options: { since?: number } = {}): Promise<RequestLogEntry[]> {
  const since = options.since;
  const entries: RequestLogEntry[] = [];
  for (const path of await entryFilesSince(directory, since)) {
    const text = await readLogFileFrom(path);
    if (text === undefined) continue;
    if (!parseWholeFile(text, since, entries)) parseEntries(text, since, entries);
  }
  return entries;
}

/** The paths of the entry files that may hold entries from `since` on, oldest first. */
export async function entryFilesSince(directory: string, since: number | undefined): Promise<string[]> {
  const files = await listEntryFiles(directory);
  const paths: string[] = [];
  for (let index = 0; index < files.length; index += 1) {
    const next = files[index + 1];
    // Every entry of a file is older than the next file's first one.
    if (since !== undefined && next && next.startsAt < since) continue;
    paths.push(join(directory, files[index].name));
  }
  return paths;
}

/** Appends the entries in `text` (JSON lines) from `since` on to `into`; returns how many characters were whole lines. */
export function parseEntries(text: string, since: number | undefined, into: RequestLogEntry[]): number {
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    if (end < 0) break;
    if (end > start) {
      const entry = parseEntry(text.slice(start, end));
      if (entry && (since === undefined || Date.parse(entry.time) >= since)) into.push(entry);
    }
    start = end + 1;
  }
  return start;
}

/**
 * A file of whole lines parsed as one JSON array: one parse instead of one per line, half the time
 * over a long log. False (nothing added) when a line is cut or not JSON: then each line is parsed alone.
 */
function parseWholeFile(text: string, since: number | undefined, into: RequestLogEntry[]): boolean {
  if (!text.endsWith('\n')) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(`[${text.slice(0, -1).replaceAll('\n', ',')}]`);
  } catch {
    return false;
  }
  for (const value of parsed as RequestLogEntry[]) {
    if (!value || typeof value !== 'object' || typeof value.request_id !== 'string' || typeof value.time !== 'string') continue;
    if (since === undefined || Date.parse(value.time) >= since) into.push(value);
  }
  return true;
}

/** One line as an entry; undefined when it is cut or not an entry. */
export function parseEntry(line: string): RequestLogEntry | undefined {
  try {
    const value = JSON.parse(line) as RequestLogEntry;
    return value && typeof value === 'object' && typeof value.request_id === 'string' && typeof value.time === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A log file's text from byte `offset` on ('' when there is nothing new); undefined when the file
 * is gone (pruned between the listing and the read).
 */
export async function readLogFileFrom(path: string, offset = 0): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    if (offset === 0) return await handle.readFile('utf8');
    const size = (await handle.stat()).size;
    if (size <= offset) return '';
    const buffer = Buffer.alloc(size - offset);
    await handle.read(buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}
