/** How many deltas are joined into one flat string. */
const BATCH = 64;

/**
 * Text that arrives in deltas (a streamed answer, a tool call's arguments), kept for as long as its
 * stream as a few flat strings. `text += delta` would keep two objects per delta (the delta and the
 * concatenation that points at it) until the text is read, and every young-generation collection
 * copies what an open stream holds: a generation of 4,000 deltas would hold 8,000 objects. Here
 * every `BATCH` deltas become one string, each character copied once more on the way; reading
 * joins what there is into one string, which then stands for all of it.
 */
export class DeltaText {
  /** Strings of `BATCH` deltas each (or of everything before the last read). */
  #joined: string[] | undefined;
  /** The deltas since the last batch. */
  #recent: string[];

  /** Starts with `text` (a whole value known at once), or empty. */
  constructor(text = '') {
    this.#recent = text === '' ? [] : [text];
  }

  append(delta: string): void {
    const recent = this.#recent;
    recent.push(delta);
    if (recent.length < BATCH) return;
    (this.#joined ??= []).push(recent.join(''));
    this.#recent = [];
  }

  toString(): string {
    const text = (this.#joined ? this.#joined.concat(this.#recent) : this.#recent).join('');
    this.#joined = text === '' ? undefined : [text];
    this.#recent = [];
    return text;
  }
}
