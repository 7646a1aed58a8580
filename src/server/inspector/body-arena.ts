/**
 * The inspector's bodies, copied into one ring of bytes. A request's bodies kept as buffers of
 * their own (or the request path's buffers, which are slices of what the sockets read) were a
 * few objects per request, alive until 200 more requests had come: every young-generation
 * collection copied them, which cost the passthrough path about a tenth of its CPU per request in
 * a paired run at c=10. Bytes in one buffer are one object whatever the number of requests.
 *
 * Positions are absolute (they only grow); a position's byte lies at `position % capacity`. A
 * record is written in one piece: when it does not fit before the end of the buffer, the rest of
 * the buffer is skipped. The buffer grows (doubling, up to `maxBytes`) rather than overwrite bytes
 * still wanted; at `maxBytes` the oldest are overwritten, and reading them says so (undefined).
 */
export class BodyArena {
  readonly maxBytes: number;
  #buffer: Buffer;
  #total = 0;
  /** Bytes before this position are gone. */
  #validFrom = 0;
  /**
   * Writes may end up to here without asking what is wanted: the oldest wanted position only
   * grows (requests leave the inspector oldest first), so an answer holds until the writes pass it.
   */
  #freeUntil = 0;
  readonly #oldestWanted: () => number;

  /** `oldestWanted`: the position of the oldest bytes still wanted, asked only when a write would overwrite bytes. */
  constructor(options: { initialBytes: number; maxBytes: number; oldestWanted: () => number }) {
    this.maxBytes = options.maxBytes;
    this.#buffer = Buffer.allocUnsafeSlow(Math.min(options.initialBytes, options.maxBytes));
    this.#oldestWanted = options.oldestWanted;
  }

  /** Where the next record will start: what `write` returns is at least this. */
  get position(): number {
    return this.#total;
  }

  /** Copies `parts` one after another; returns the start of each and the end, or undefined when they are larger than the arena may grow. */
  write(parts: readonly (Buffer | string)[]): number[] | undefined {
    let length = 0;
    for (const part of parts) length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
    if (length > this.maxBytes) return undefined;
    let at = this.#placeFor(length);
    const offsets: number[] = [];
    for (const part of parts) {
      offsets.push(at);
      const index = at % this.#buffer.length;
      at += typeof part === 'string' ? this.#buffer.write(part, index, 'utf8') : part.copy(this.#buffer, index);
    }
    offsets.push(at);
    this.#total = at;
    return offsets;
  }

  /** The text between two positions; undefined once those bytes are gone. */
  read(start: number, end: number): string | undefined {
    if (start < this.#validFrom) return undefined;
    const index = start % this.#buffer.length;
    return this.#buffer.toString('utf8', index, index + (end - start));
  }

  /** Where a record of `length` bytes goes: in one piece, growing the buffer rather than overwriting what is wanted. */
  #placeFor(length: number): number {
    for (;;) {
      const capacity = this.#buffer.length;
      const index = this.#total % capacity;
      const start = index + length > capacity ? this.#total + (capacity - index) : this.#total;
      const end = start + length;
      if (end - this.#validFrom <= capacity) return start;
      if (end <= this.#freeUntil) {
        this.#validFrom = end - capacity;
        return start;
      }
      const wanted = Math.max(this.#validFrom, Math.min(this.#oldestWanted(), this.#total));
      this.#freeUntil = wanted + capacity;
      if (end - wanted <= capacity) {
        this.#validFrom = end - capacity;
        return start;
      }
      if (capacity >= this.maxBytes) {
        this.#validFrom = end - capacity;
        return start;
      }
      this.#grow(Math.min(this.maxBytes, 2 * capacity), wanted);
    }
  }

  /** A larger buffer, holding the bytes from `keepFrom` on at their positions. */
  #grow(capacity: number, keepFrom: number): void {
    const old = this.#buffer;
    const grown = Buffer.allocUnsafeSlow(capacity);
    for (let position = keepFrom; position < this.#total; ) {
      const from = position % old.length;
      const to = position % capacity;
      const run = Math.min(this.#total - position, old.length - from, capacity - to);
      old.copy(grown, to, from, from + run);
      position += run;
    }
    this.#buffer = grown;
    this.#validFrom = keepFrom;
  }
}
