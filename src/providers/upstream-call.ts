import type { IncomingHttpHeaders } from 'node:http';
import { errors as undiciErrors, type Dispatcher } from 'undici';

/** Stops an upstream call: `aborted`, and an `abort` event (the gateway's `UpstreamStop`). */
export interface StopSignal {
  readonly aborted: boolean;
  once(event: 'abort', listener: () => void): unknown;
  off(event: 'abort', listener: () => void): unknown;
}

/** Receives one chunk of an upstream body; while the promise it returns is pending, the upstream waits. */
export type ChunkHandler = (chunk: Buffer) => Promise<void> | void;

/** An upstream response's body, read once, either chunk by chunk or whole. */
export interface UpstreamBody {
  /**
   * Hands each chunk to `onChunk` as it arrives. Resolves at the body's end; rejects when the body
   * fails (timeout, cut connection) or `onChunk` does, which also stops the upstream.
   */
  consume(onChunk: ChunkHandler): Promise<void>;
  /** The whole body, as the bytes that arrived. */
  bytes(): Promise<Buffer>;
  text(): Promise<string>;
}

export interface UpstreamHead {
  status: number;
  headers: IncomingHttpHeaders;
}

/**
 * One upstream call as undici's dispatcher runs it: `head` settles with the status and headers,
 * then each body chunk goes from the HTTP parser straight to the consumer. No stream in between:
 * `Pool.request` wraps every response in a Readable, whose push, `data` event and read-ahead per
 * chunk cost as much as the gateway's own work on a forwarded event.
 *
 * Chunks that arrive before the body is consumed (with the headers, in the same read) wait in a
 * queue. While the consumer's promise is pending, the socket is paused: the client sets the pace.
 */
export class UpstreamCall implements Dispatcher.DispatchHandler, UpstreamBody {
  readonly head: Promise<UpstreamHead>;
  /** Until the head settles (then let go: a call lives as long as its stream). */
  #resolveHead: ((head: UpstreamHead) => void) | undefined;
  #rejectHead: ((error: Error) => void) | undefined;
  #started = false;
  #controller: Dispatcher.DispatchController | undefined;
  #signal: StopSignal | undefined;
  #stopReason: Error | undefined;

  #onChunk: ChunkHandler | undefined;
  #settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  #queued: Buffer[] = [];
  /** The consumer's promise for the last chunk is pending. */
  #busy = false;
  #ended = false;
  /** What ended the call early, once something has. */
  #failure: unknown;

  constructor(signal: StopSignal | undefined) {
    this.head = new Promise((resolve, reject) => {
      this.#resolveHead = resolve;
      this.#rejectHead = reject;
    });
    if (!signal) return;
    if (signal.aborted) this.#stopReason = new undiciErrors.RequestAbortedError();
    else {
      this.#signal = signal;
      signal.once('abort', this.#onStop);
    }
  }

  #onStop = () => {
    this.#signal = undefined;
    this.#stopReason = new undiciErrors.RequestAbortedError();
    this.#controller?.abort(this.#stopReason);
  };

  #stopListening() {
    this.#signal?.off('abort', this.#onStop);
    this.#signal = undefined;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#stopReason) controller.abort(this.#stopReason);
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    // The headers arrive parsed; the controller, which the call keeps for pause, resume and abort,
    // would otherwise hold their raw buffers (a Buffer per name and value) as long as the stream.
    controller.rawHeaders = null;
    if (status < 200) return; // 1xx: informational, the answer is still to come
    this.#started = true;
    this.#resolveHead!({ status, headers });
    this.#resolveHead = this.#rejectHead = undefined;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    // Straight to a consumer still waiting for the body, unless others are queued before it.
    if (this.#settle && !this.#busy && this.#queued.length === 0) this.#deliver(chunk);
    else this.#queued.push(chunk);
  }

  onResponseEnd(): void {
    this.#stopListening();
    this.#ended = true;
    this.#drain();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#stopListening();
    if (this.#failure !== undefined) return; // the consumer's own failure, which stopped the call
    this.#failure = error;
    // What arrived before the failure is still delivered (it belongs in a recovery record).
    if (!this.#started) this.#rejectHead?.(error);
    else this.#drain();
  }

  consume(onChunk: ChunkHandler): Promise<void> {
    if (this.#onChunk) return Promise.reject(new Error('An upstream body is read once.'));
    this.#onChunk = onChunk;
    return new Promise((resolve, reject) => {
      this.#settle = { resolve, reject };
      this.#drain();
    });
  }

  async bytes(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    await this.consume((chunk) => void chunks.push(chunk));
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  }

  async text(): Promise<string> {
    return (await this.bytes()).toString('utf8');
  }

  /** Delivers what is queued, as far as the consumer takes it, then settles if the call is over. */
  #drain() {
    while (this.#settle && !this.#busy && this.#queued.length > 0) this.#deliver(this.#queued.shift()!);
    const settle = this.#settle;
    if (!settle || this.#busy || this.#queued.length > 0) return;
    if (this.#failure !== undefined) {
      this.#settle = undefined;
      settle.reject(this.#failure);
    } else if (this.#ended) {
      this.#settle = undefined;
      settle.resolve();
    }
  }

  #deliver(chunk: Buffer) {
    let pending: Promise<void> | void;
    try {
      pending = this.#onChunk!(chunk);
    } catch (error) {
      return this.#fail(error);
    }
    if (!pending) return;
    this.#busy = true;
    this.#controller?.pause();
    pending.then(
      () => {
        this.#busy = false;
        // Queued chunks first: resuming may parse more at once, and those come after.
        this.#drain();
        if (!this.#busy) this.#controller?.resume();
      },
      (error: unknown) => this.#fail(error),
    );
  }

  /** The consumer failed: the upstream is stopped and the consumer's error is what `consume` rejects with. */
  #fail(error: unknown) {
    this.#busy = false;
    if (this.#failure === undefined) this.#failure = error ?? new Error('The upstream body was abandoned.');
    this.#queued = [];
    if (!this.#ended) this.#controller?.abort(error instanceof Error ? error : new undiciErrors.RequestAbortedError());
    this.#drain();
  }
}
