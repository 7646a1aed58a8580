/** The first buffer of a batch; it doubles as lines come. */
const INITIAL_BYTES = 64 * 1024;

/**
 * Text waiting to be written, kept as UTF-8 bytes in one growing buffer. A queue of strings or
 * entry objects would leave a few objects per request alive until the next write: every
 * young-generation collection copies them, and those that live long enough are promoted and
 * marked later, which cost the request log and the stderr line most of their CPU (a paired run,
 * passthrough at c=10: +22 µs and +15 µs per request with the queues, +13 and ~0 with this; bench/FINDINGS.md).
 * Bytes in one buffer are a single object whatever the number of lines.
 */
export class ByteBatch {
  #buffer: Buffer = Buffer.allocUnsafeSlow(INITIAL_BYTES);
  #length = 0;
  /** The buffer given back last (`release`), for the next batch. */
  #spare: Buffer | undefined;

  /** Bytes queued so far. */
  get length(): number {
    return this.#length;
  }

  /** `text` and a line feed (written as a byte: `${text}\n` would be a new string to flatten first). */
  addLine(text: string): void {
    this.addText(text);
    this.addByte(0x0a);
  }

  /** `text` as UTF-8, nothing after it. */
  addText(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit; checked first, so `write` never cuts a line.
    const most = text.length * 3;
    if (this.#length + most > this.#buffer.length) this.#grow(most);
    this.#length += this.#buffer.write(text, this.#length, 'utf8');
  }

  /** One byte: a separator between fields or lines. */
  addByte(byte: number): void {
    if (this.#length + 1 > this.#buffer.length) this.#grow(1);
    this.#buffer[this.#length++] = byte;
  }

  /**
   * What is queued, handed over whole (it stays valid until given back with `release`); the
   * batch starts again empty, in the buffer given back last when there is one of a fitting size.
   */
  take(): Buffer {
    const taken = this.#buffer.subarray(0, this.#length);
    const wanted = Math.max(INITIAL_BYTES, Math.min(this.#buffer.length, 2 * this.#length));
    const spare = this.#spare;
    this.#spare = undefined;
    // A spare far larger than wanted (left by a burst) is let go rather than held.
    this.#buffer = spare !== undefined && spare.length >= wanted && spare.length <= 4 * wanted ? spare : Buffer.allocUnsafeSlow(wanted);
    this.#length = 0;
    return taken;
  }

  /**
   * Gives back what `take` handed over, once written: the next `take` fills it again instead of
   * allocating. A fresh buffer per batch (the request log's are hundreds of KB, ten a second)
   * cost what no instruction count shows: paired, passthrough at c=10, reusing them took 0.92–0.95×
   * the CPU per request, and the RSS growth over 100,000 logged requests from 7–36 MB to 8 MB
   * (bench/FINDINGS.md).
   */
  release(taken: Buffer): void {
    this.#spare = Buffer.from(taken.buffer, 0, taken.buffer.byteLength);
  }

  #grow(needed: number): void {
    const grown = Buffer.allocUnsafeSlow(Math.max(2 * this.#buffer.length, this.#length + needed));
    this.#buffer.copy(grown, 0, 0, this.#length);
    this.#buffer = grown;
  }
}
