import { open } from 'node:fs/promises';
import { UsageTally, type UsageFields, type UsageGrouping, type UsageReport } from './aggregate-usage.js';
import { entryFilesSince, parseEntry } from './request-log.js';

/**
 * `gateway usage`: the log's usage per group from `since` on, without building its entries. A long
 * log is mostly what usage never sums (ids, endpoints, timings, user agents, warnings): parsing
 * each line whole made 100,000 entries take two seconds, nearly all of it in `JSON.parse` and the
 * collector. Each line is read for the fields usage sums instead, as the writer writes them; a line
 * that does not look so is parsed whole, as `readRequestLog` does, so nothing is counted otherwise.
 */
export async function sumRequestLog(directory: string, options: { since?: number; by: UsageGrouping }): Promise<UsageReport> {
  const tally = new UsageTally(options.by);
  const scanner = new UsageLineScanner(tally, options.since);
  for (const path of await entryFilesSince(directory, options.since)) await scanner.scanFile(path);
  return tally.report();
}

const CHUNK_BYTES = 64 * 1024;
const READ_BYTES = 1024 * 1024;
const NEWLINE = 10;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const CLOSE_BRACE = 125;
/** How every line of the writer starts (`JSON.stringify` of an entry, `request_id` first). */
const LINE_START = '{"request_id":"';

/**
 * Reads the summed fields of each line of a file. A key is found by its quoted name followed by a
 * colon: inside a JSON string every quote is escaped, so that text is always a key. Keys are looked
 * for in the writer's order, each after the one before.
 */
class UsageLineScanner {
  #tally: UsageTally;
  #since: number | undefined;
  #needsTime: boolean;
  #needsUser: boolean;
  #needsProtocol: boolean;
  // One object for every line: the tally reads it before the next line is read.
  #fields: UsageFields = { time: '', user: '', protocol: '', upstream: null, input_tokens: null, output_tokens: null, cached_tokens: null, cost_usd: null };
  // Reads land here, reused from file to file: a fresh buffer per read (or a whole file read at
  // once) made the reads take longer than the sums.
  #buffer = Buffer.allocUnsafe(READ_BYTES);
  #text = '';
  /** Where `#text` starts in `#buffer`. */
  #offset = 0;
  #at = 0;
  #end = 0;

  constructor(tally: UsageTally, since: number | undefined) {
    this.#tally = tally;
    this.#since = since;
    this.#needsTime = since !== undefined || tally.by === 'day';
    this.#needsUser = tally.by === 'user';
    this.#needsProtocol = tally.by === 'protocol';
  }

  /** Sums the whole lines of the file; a last line without its newline is still being written, or was cut short. */
  async scanFile(path: string): Promise<void> {
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      // Pruned between the listing and the read.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      let filled = 0;
      for (;;) {
        if (filled === this.#buffer.length) this.#buffer = Buffer.concat([this.#buffer.subarray(0, filled)], filled * 2);
        const { bytesRead } = await handle.read(this.#buffer, filled, this.#buffer.length - filled, null);
        if (bytesRead === 0) return;
        filled += bytesRead;
        const consumed = this.#scanLines(filled);
        this.#buffer.copy(this.#buffer, 0, consumed, filled);
        filled -= consumed;
      }
    } finally {
      this.#text = '';
      await handle.close();
    }
  }

  /** Sums the whole lines of the buffer's first `limit` bytes; returns where the first line not whole starts. */
  #scanLines(limit: number): number {
    const bytes = this.#buffer;
    let offset = 0;
    while (offset < limit) {
      // A string a chunk at a time, not the whole read: Node makes a string of more than about
      // 1 MB outside V8's heap, and those cost many times more to make and to collect.
      let last = bytes.lastIndexOf(NEWLINE, Math.min(offset + CHUNK_BYTES, limit) - 1);
      if (last < offset) {
        // A line longer than a chunk.
        last = bytes.indexOf(NEWLINE, offset + CHUNK_BYTES);
        if (last < 0 || last >= limit) break;
      }
      this.#scanText(offset, last + 1);
      offset = last + 1;
    }
    return offset;
  }

  #scanText(offset: number, limit: number): void {
    const bytes = this.#buffer;
    // One character per byte: a position in the text is the same position in the bytes, and a
    // byte of a multi-byte character is never a quote, a backslash or a newline.
    const text = (this.#text = bytes.toString('latin1', offset, limit));
    this.#offset = offset;
    let start = 0;
    while (start < text.length) {
      const end = text.indexOf('\n', start);
      // The last line without its newline is still being written, or was cut short.
      if (end < 0) break;
      if (end > start && !this.#scanLine(start, end)) {
        const entry = parseEntry(bytes.toString('utf8', offset + start, offset + end));
        if (entry && (this.#since === undefined || Date.parse(entry.time) >= this.#since)) this.#tally.add(entry);
      }
      start = end + 1;
    }
  }

  /** Adds the line between `start` and `end` to the tally; false when it must be parsed whole. */
  #scanLine(start: number, end: number): boolean {
    const text = this.#text;
    if (!text.startsWith(LINE_START, start) || text.charCodeAt(end - 1) !== CLOSE_BRACE) return false;
    // A line cut short with the next entry written after it is two starts on one line: no entry.
    const again = text.indexOf('"request_id":', start + LINE_START.length);
    if (again >= 0 && again < end) return false;
    this.#at = start + LINE_START.length;
    this.#end = end;
    const fields = this.#fields;
    if (!this.#key('"time":"')) return false;
    const time = this.#string();
    if (time === undefined) return false;
    if (this.#needsTime) {
      if (this.#since !== undefined && !(Date.parse(time) >= this.#since)) return true;
      fields.time = time;
    }
    if (this.#needsUser) {
      if (!this.#key('"user":"')) return false;
      const user = this.#string();
      if (user === undefined) return false;
      fields.user = user;
    }
    if (this.#needsProtocol) {
      if (!this.#key('"protocol":"')) return false;
      const protocol = this.#string();
      if (protocol === undefined) return false;
      fields.protocol = protocol;
    }
    if (!this.#key('"upstream":')) return false;
    if (text.startsWith('null', this.#at)) {
      fields.upstream = null;
      this.#at += 4;
    } else {
      if (text.charCodeAt(this.#at) !== QUOTE) return false;
      this.#at += 1;
      const upstream = this.#string();
      if (upstream === undefined) return false;
      fields.upstream = upstream;
    }
    if (!this.#key('"input_tokens":')) return false;
    const input = this.#count();
    if (input === undefined) return false;
    if (!this.#key('"output_tokens":')) return false;
    const output = this.#count();
    if (output === undefined) return false;
    if (!this.#key('"cached_tokens":')) return false;
    const cached = this.#count();
    if (cached === undefined) return false;
    if (!this.#key('"cost_usd":')) return false;
    const cost = this.#number();
    if (cost === undefined) return false;
    fields.input_tokens = input;
    fields.output_tokens = output;
    fields.cached_tokens = cached;
    fields.cost_usd = cost;
    this.#tally.add(fields);
    return true;
  }

  /** Moves past `"name":` in the current line; false when it is not there. */
  #key(needle: string): boolean {
    const found = this.#text.indexOf(needle, this.#at);
    if (found < 0 || found >= this.#end) return false;
    this.#at = found + needle.length;
    return true;
  }

  /** The string value whose opening quote is just behind; undefined when it holds an escape (left to JSON.parse). */
  #string(): string | undefined {
    const text = this.#text;
    const from = this.#at;
    let ascii = true;
    for (let index = from; index < this.#end; index += 1) {
      const code = text.charCodeAt(index);
      if (code === QUOTE) {
        this.#at = index + 1;
        return ascii ? text.slice(from, index) : this.#buffer.toString('utf8', this.#offset + from, this.#offset + index);
      }
      if (code === BACKSLASH) return undefined;
      if (code > 127) ascii = false;
    }
    return undefined;
  }

  /** A whole number or null; undefined for anything else. */
  #count(): number | null | undefined {
    const text = this.#text;
    const from = this.#at;
    let value = 0;
    let index = from;
    for (; index < this.#end; index += 1) {
      const code = text.charCodeAt(index);
      if (code < 48 || code > 57) break;
      value = value * 10 + (code - 48);
    }
    const isNull = index === from && text.startsWith('null', from);
    if (isNull) index += 4;
    else if (index === from) return undefined;
    const next = text.charCodeAt(index);
    if (next !== COMMA && next !== CLOSE_BRACE) return undefined;
    this.#at = index;
    return isNull ? null : value;
  }

  /** A JSON number or null; undefined for anything else. */
  #number(): number | null | undefined {
    const text = this.#text;
    const from = this.#at;
    let index = from;
    while (index < this.#end && text.charCodeAt(index) !== COMMA && text.charCodeAt(index) !== CLOSE_BRACE) index += 1;
    if (index === from || index >= this.#end) return undefined;
    const raw = text.slice(from, index);
    this.#at = index;
    if (raw === 'null') return null;
    // Number() also takes what JSON does not write (` 1`, `0x1`, `Infinity`): only JSON's characters pass.
    if (!/^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(raw)) return undefined;
    return Number(raw);
  }
}
