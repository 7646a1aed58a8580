import type { ServerResponse } from 'node:http';
import type { InspectorObserver } from './inspector-observer.js';

/** Changes wait this long to go out together: under load the page gets a few batches a second, not a message per request. */
const BATCH_MS = 250;
/** While a response streams, its row is sent again this often so the page sees it grow. */
const LIVE_REFRESH_MS = 1000;

/**
 * The page's live feed: an SSE response that sends, in batches, the rows that changed since the
 * last batch (`event: rows`, `data: {rows, version}`). It reads the outcomes only when it sends,
 * never per request or per stream event, and sends nothing while the socket is full.
 */
export class InspectorFeed {
  readonly #response: ServerResponse;
  readonly #observer: InspectorObserver;
  readonly #user: string | undefined;
  #version: number;
  #timer: NodeJS.Timeout | undefined;
  #waitingForDrain = false;
  #stopListening: (() => void) | undefined;
  #stopWaitingForClose: (() => void) | undefined;
  #done: (() => void) | undefined;

  constructor(response: ServerResponse, observer: InspectorObserver, user: string | undefined, since: number) {
    this.#response = response;
    this.#observer = observer;
    this.#user = user;
    this.#version = since;
  }

  /** Sends the head and the rows the page lacks; settles when the page goes away. */
  run(headers: Record<string, string>): Promise<void> {
    const response = this.#response;
    response.writeHead(200, Object.assign({ 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' }, headers));
    // The first byte tells the page the feed is connected, before any request comes.
    response.write(': connected\n\n');
    this.#stopListening = this.#observer.listen(() => this.#schedule(BATCH_MS));
    this.#stopWaitingForClose = this.#observer.whenClosed(() => response.end());
    response.on('close', this.#close);
    response.on('drain', this.#drained);
    this.#flush();
    return new Promise((resolve) => {
      this.#done = resolve;
    });
  }

  #schedule(delay: number): void {
    if (this.#timer !== undefined || this.#waitingForDrain) return;
    this.#timer = setTimeout(this.#flush, delay);
  }

  #flush = (): void => {
    this.#timer = undefined;
    const version = this.#observer.version;
    const rows = this.#observer.rows(this.#user, this.#version);
    this.#version = version;
    if (rows.length > 0 && !this.#response.write(`event: rows\ndata: ${JSON.stringify({ rows, version })}\n\n`)) this.#waitingForDrain = true;
    if (this.#observer.liveCount > 0) this.#schedule(LIVE_REFRESH_MS);
  };

  #drained = (): void => {
    this.#waitingForDrain = false;
    this.#schedule(BATCH_MS);
  };

  #close = (): void => {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waitingForDrain = true;
    this.#stopListening?.();
    this.#stopWaitingForClose?.();
    this.#response.off('close', this.#close);
    this.#response.off('drain', this.#drained);
    this.#done?.();
  };
}
