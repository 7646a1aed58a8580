import type { GatewayConfig } from '../../config/config-types.js';
import type { GenerationObserver, GenerationOutcome } from '../../gateway/generation-outcome.js';
import type { Usage } from '../../core/usage.js';
import { isoTime } from '../../log/iso-time.js';
import { ModelPrices } from '../../log/model-prices.js';
import type { RequestLogEntry } from '../../log/request-log.js';
import { BodyArena } from './body-arena.js';
import { FinishedRequests } from './finished-requests.js';

/**
 * One request as the page lists it: the request log's fields (token counts null when the upstream
 * did not report them), and what only a live page needs.
 */
export type InspectorRow = Pick<
  RequestLogEntry,
  | 'request_id'
  | 'time'
  | 'user'
  | 'protocol'
  | 'endpoint'
  | 'model'
  | 'upstream'
  | 'mode'
  | 'stream'
  | 'ttfb_ms'
  | 'input_tokens'
  | 'output_tokens'
  | 'cached_tokens'
  | 'reasoning_tokens'
  | 'cost_usd'
  | 'interrupted_reason'
  | 'resumed_from'
> & {
  /** Grows with every change of the entry: the feed sends rows newer than what the page has. */
  version: number;
  /** 0 while the response is under way. */
  status: number;
  live: boolean;
  /** So far, while it is under way. */
  duration_ms: number;
  warnings: number;
  /** The size of the response so far (a stream's grows while it runs). */
  response_chars: number | null;
};

/** What the page reads of a request: the outcome while it runs, a view of its values once over (`FinishedRequests`). */
export type InspectedRequest = Pick<
  GenerationOutcome,
  | 'requestId'
  | 'user'
  | 'protocol'
  | 'model'
  | 'endpoint'
  | 'stream'
  | 'startedAt'
  | 'upstream'
  | 'attempts'
  | 'status'
  | 'durationMs'
  | 'ttfbMs'
  | 'warnings'
  | 'interrupted'
  | 'resumedFrom'
  | 'requestBodyText'
  | 'upstreamRequestBodyText'
  | 'responseBodyText'
  | 'usage'
  | 'secrets'
> & { readonly error: { code: string; status: number; message: string } | undefined };

/** The row of one request as the page lists it: `live` while it runs (its duration and response so far). */
function rowOf(outcome: InspectedRequest, version: number, live: boolean, now: number, costOf: CostOf): InspectorRow {
  const usage = outcome.usage();
  const upstream = outcome.upstream;
  return {
    request_id: outcome.requestId,
    version,
    time: isoTime(outcome.startedAt),
    user: outcome.user,
    protocol: outcome.protocol,
    endpoint: outcome.endpoint,
    model: outcome.model,
    upstream: upstream ? `${upstream.provider}/${upstream.model}` : null,
    mode: upstream?.mode ?? null,
    status: live ? 0 : outcome.status,
    live,
    stream: outcome.stream,
    duration_ms: live ? now - outcome.startedAt : outcome.durationMs,
    ttfb_ms: outcome.ttfbMs ?? null,
    input_tokens: usage.input.total ?? null,
    output_tokens: usage.output.total ?? null,
    cached_tokens: usage.input.cacheRead ?? null,
    reasoning_tokens: usage.output.reasoning ?? null,
    // As the request log prices it: the same price list and config overrides.
    cost_usd: upstream ? costOf(upstream.provider, upstream.model, usage) : null,
    interrupted_reason: outcome.interrupted ?? null,
    resumed_from: outcome.resumedFrom ?? null,
    warnings: outcome.warnings.length,
    response_chars: live ? outcome.responseBodyText().length : null,
  };
}

type CostOf = (provider: string, model: string, usage: Usage) => number | null;

/**
 * Keeps the last `keep` generations for the inspector page, from the moment their response is
 * under way (or, for a request refused before any, from its end). It holds the outcomes and
 * reads them only when the page asks while they run (never per stream event); once a request is
 * over, it keeps its values only, in `FinishedRequests`' columns.
 */
export class InspectorObserver implements GenerationObserver {
  readonly keep: number;
  /**
   * The requests listed so far. Request n (from 0) is in slot `n % keep` until request
   * `n + keep` takes the slot: nothing is made or dropped per request, and a request never
   * touches the slot of the one it pushes out (200 requests old, out of the processor's caches).
   * The page finds a request by id by looking through the slots.
   */
  #count = 0;
  /** Per slot: the number of the request in it (-1: none yet), and its version. */
  readonly #numbers: Float64Array;
  readonly #versions: Float64Array;
  /** Per slot, while its request runs: its outcome. */
  readonly #running: (GenerationOutcome | undefined)[];
  /** The requests under way, with their numbers. */
  readonly #started = new Map<GenerationOutcome, number>();
  /** Per slot: its finished request's row, worked out once when the page first asks. */
  readonly #rows: (InspectorRow | undefined)[];
  readonly #finished: FinishedRequests;
  #version = 0;
  readonly #listeners = new Set<() => void>();
  readonly #closers = new Set<() => void>();
  readonly #getConfig: () => GatewayConfig;
  #prices: { config: GatewayConfig; prices: ModelPrices } | undefined;

  constructor(keep: number, getConfig: () => GatewayConfig, bodyMaxMb = 256) {
    this.keep = keep;
    this.#getConfig = getConfig;
    this.#numbers = new Float64Array(keep).fill(-1);
    this.#versions = new Float64Array(keep);
    this.#running = new Array<GenerationOutcome | undefined>(keep).fill(undefined);
    this.#rows = new Array<InspectorRow | undefined>(keep).fill(undefined);
    // The finished requests' bodies: the arena starts at 8 KB a request and grows to `bodyMaxMb`.
    const arena = new BodyArena({ initialBytes: keep * 8 * 1024, maxBytes: bodyMaxMb * 2 ** 20, oldestWanted: () => this.#oldestBodies() });
    this.#finished = new FinishedRequests(keep, arena);
  }

  /** The start of the oldest bodies of a request still listed: the arena keeps them. */
  #oldestBodies(): number {
    let oldest = Infinity;
    for (const slot of this.#slots()) {
      const start = this.#finished.bodiesStart(slot);
      if (this.#running[slot] === undefined && start >= 0) oldest = Math.min(oldest, start);
    }
    return oldest;
  }

  #costOf: CostOf = (provider, model, usage) => {
    const config = this.#getConfig();
    if (this.#prices?.config !== config) this.#prices = { config, prices: new ModelPrices(config) };
    return this.#prices.prices.costOf(
      config.providers.find((candidate) => candidate.id === provider),
      provider,
      model,
      usage,
    );
  };

  started(outcome: GenerationOutcome): void {
    const number = this.#add(outcome, true);
    this.#started.set(outcome, number);
    this.#touch(number % this.keep);
    this.#changed();
  }

  finished(outcome: GenerationOutcome): void {
    let number = this.#started.get(outcome);
    if (number === undefined) {
      // Refused before any response: listed now.
      number = this.#add(outcome, false);
    } else {
      this.#started.delete(outcome);
      // Pushed out of the ring while it ran (200 requests came meanwhile): listed again, as the newest.
      if (this.#numbers[number % this.keep] !== number) number = this.#add(outcome, false);
    }
    const slot = number % this.keep;
    this.#running[slot] = undefined;
    this.#finished.write(slot, outcome);
    this.#touch(slot);
    this.#changed();
  }

  /** Rows newest first, of one user only when `user` is given, changed after `after`. */
  rows(user: string | undefined, after = 0, now = Date.now()): InspectorRow[] {
    const rows: InspectorRow[] = [];
    for (const slot of this.#slots()) {
      const running = this.#running[slot];
      if (user !== undefined && (running ? running.user : this.#finished.user(slot)) !== user) continue;
      // A live request's row grows while nothing touches it: always sent.
      if (this.#versions[slot]! <= after && running === undefined) continue;
      rows.push(this.#row(slot, now));
    }
    return rows;
  }

  /** The newest version handed out: a feed that has it has every change so far. */
  get version(): number {
    return this.#version;
  }

  get liveCount(): number {
    let count = 0;
    for (const slot of this.#slots()) if (this.#running[slot] !== undefined) count += 1;
    return count;
  }

  /** One request, as its user (or an admin, `user` undefined) may see it. */
  find(requestId: string, user: string | undefined): { outcome: InspectedRequest; row: InspectorRow } | undefined {
    for (const slot of this.#slots()) {
      const running = this.#running[slot];
      if ((running ? running.requestId : this.#finished.requestId(slot)) !== requestId) continue;
      const outcome = running ?? this.#finished.view(slot);
      if (user !== undefined && outcome.user !== user) return undefined;
      return { outcome, row: this.#row(slot, Date.now()) };
    }
    return undefined;
  }

  /** Called after any change, at most once per change; returns the function that stops it. */
  listen(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Called when the server stops: a page's feed must not hold the shutdown open. */
  whenClosed(closer: () => void): () => void {
    this.#closers.add(closer);
    return () => this.#closers.delete(closer);
  }

  /** The server stops: every feed ends. */
  close(): void {
    for (const closer of [...this.#closers]) closer();
    this.#closers.clear();
  }

  /** Gives `outcome` the next slot, as the newest request; returns its number (the caller says what changed). */
  #add(outcome: GenerationOutcome, running: boolean): number {
    const number = this.#count++;
    const slot = number % this.keep;
    this.#numbers[slot] = number;
    this.#running[slot] = running ? outcome : undefined;
    return number;
  }

  #touch(slot: number): void {
    this.#versions[slot] = ++this.#version;
    this.#rows[slot] = undefined;
  }

  /** The slots of the requests listed, newest first. */
  *#slots(): Generator<number> {
    const listed = Math.min(this.#count, this.keep);
    for (let age = 1; age <= listed; age += 1) yield (this.#count - age) % this.keep;
  }

  #row(slot: number, now: number): InspectorRow {
    const running = this.#running[slot];
    if (running) return rowOf(running, this.#versions[slot]!, true, now, this.#costOf);
    return (this.#rows[slot] ??= rowOf(this.#finished.view(slot), this.#versions[slot]!, false, now, this.#costOf));
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
