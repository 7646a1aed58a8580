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

  /** What is queued, handed over whole (it stays valid); the batch starts again empty. */
  take(): Buffer {
    const taken = this.#buffer.subarray(0, this.#length);
    this.#buffer = Buffer.allocUnsafeSlow(Math.max(INITIAL_BYTES, Math.min(this.#buffer.length, 2 * this.#length)));
    this.#length = 0;
    return taken;
  }

  #grow(needed: number): void {
    const grown = Buffer.allocUnsafeSlow(Math.max(2 * this.#buffer.length, this.#length + needed));
    this.#buffer.copy(grown, 0, 0, this.#length);
    this.#buffer = grown;
  }
}
