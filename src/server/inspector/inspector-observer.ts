import type { GatewayConfig } from '../../config/config-types.js';
import type { GenerationObserver, GenerationOutcome } from '../../gateway/generation-outcome.js';
import type { Usage } from '../../core/usage.js';
import { isoTime } from '../../log/iso-time.js';
import { ModelPrices } from '../../log/model-prices.js';
import type { RequestLogEntry } from '../../log/request-log.js';
import { BodyArena } from './body-arena.js';
import { FinishedRequest } from './finished-request.js';

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

/** What the page reads of a request: the outcome while it runs, a `FinishedRequest` once over. */
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

/** A request the inspector keeps, read only when the page asks. */
class InspectorEntry {
  outcome: InspectedRequest;
  version: number;
  live = true;
  /** Its place in the observer's ring. */
  slot = -1;
  #row: InspectorRow | undefined;

  constructor(outcome: InspectedRequest, version: number) {
    this.outcome = outcome;
    this.version = version;
  }

  touch(version: number): void {
    this.version = version;
    this.#row = undefined;
  }

  /** The row, worked out once per change of a finished entry (a live one's grows, so each time). */
  row(now: number, costOf: CostOf): InspectorRow {
    if (this.#row !== undefined) return this.#row;
    const outcome = this.outcome;
    const usage = outcome.usage();
    const upstream = outcome.upstream;
    const row: InspectorRow = {
      request_id: outcome.requestId,
      version: this.version,
      time: isoTime(outcome.startedAt),
      user: outcome.user,
      protocol: outcome.protocol,
      endpoint: outcome.endpoint,
      model: outcome.model,
      upstream: upstream ? `${upstream.provider}/${upstream.model}` : null,
      mode: upstream?.mode ?? null,
      status: this.live ? 0 : outcome.status,
      live: this.live,
      stream: outcome.stream,
      duration_ms: this.live ? now - outcome.startedAt : outcome.durationMs,
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
      response_chars: this.live ? outcome.responseBodyText().length : null,
    };
    if (!this.live) this.#row = row;
    return row;
  }
}

type CostOf = (provider: string, model: string, usage: Usage) => number | null;

/**
 * Keeps the last `keep` generations for the inspector page, from the moment their response is
 * under way (or, for a request refused before any, from its end). It holds the outcomes and
 * reads them only when the page asks while they run (never per stream event); once a request is
 * over, it keeps its texts and figures only (`FinishedRequest`).
 */
export class InspectorObserver implements GenerationObserver {
  readonly keep: number;
  /**
   * The entries in a ring, oldest first from `#next`; the ones under way also by request id. A
   * request never touches the entry it pushes out: that entry is 200 requests old, out of the
   * processor's caches, and a Map of every entry, dropping its oldest key each time, cost the
   * passthrough path a few µs per request in those misses (and in skipping the deleted slots at
   * the head of the Map's table). The page finds an entry by id by looking through the ring.
   */
  readonly #ring: (InspectorEntry | undefined)[];
  #next = 0;
  readonly #live = new Map<string, InspectorEntry>();
  #version = 0;
  readonly #listeners = new Set<() => void>();
  readonly #closers = new Set<() => void>();
  readonly #getConfig: () => GatewayConfig;
  #prices: { config: GatewayConfig; prices: ModelPrices } | undefined;

  /** Where finished requests' bodies are copied: it starts at 8 KB a request and grows to `bodyMaxMb`. */
  readonly #arena: BodyArena;

  constructor(keep: number, getConfig: () => GatewayConfig, bodyMaxMb = 256) {
    this.keep = keep;
    this.#getConfig = getConfig;
    this.#ring = new Array<InspectorEntry | undefined>(keep).fill(undefined);
    this.#arena = new BodyArena({ initialBytes: keep * 8 * 1024, maxBytes: bodyMaxMb * 2 ** 20, oldestWanted: () => this.#oldestBodies() });
  }

  /** The start of the oldest bodies of a request still listed: the arena keeps them. */
  #oldestBodies(): number {
    let oldest = Infinity;
    for (const entry of this.#ring) if (entry !== undefined && entry.outcome instanceof FinishedRequest && entry.outcome.bodiesStart >= 0) oldest = Math.min(oldest, entry.outcome.bodiesStart);
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
    this.#live.set(outcome.requestId, this.#add(outcome));
  }

  finished(outcome: GenerationOutcome): void {
    let entry = this.#live.get(outcome.requestId);
    if (entry === undefined) {
      // Refused before any response: listed now.
      entry = this.#add(outcome);
    } else {
      if (entry.outcome !== outcome) return;
      this.#live.delete(outcome.requestId);
      // Pushed out of the ring while it ran (200 requests came meanwhile): listed again, as the newest.
      if (this.#ring[entry.slot] !== entry) entry = this.#add(outcome);
    }
    entry.outcome = new FinishedRequest(outcome, this.#arena);
    entry.live = false;
    entry.touch(++this.#version);
    this.#changed();
  }

  /** Rows newest first, of one user only when `user` is given, changed after `after`. */
  rows(user: string | undefined, after = 0, now = Date.now()): InspectorRow[] {
    const rows: InspectorRow[] = [];
    for (let age = 1; age <= this.keep; age += 1) {
      const entry = this.#ring[(this.#next - age + this.keep) % this.keep];
      if (entry === undefined) continue;
      if (user !== undefined && entry.outcome.user !== user) continue;
      // A live entry's row grows while nothing touches it: always sent.
      if (entry.version <= after && !entry.live) continue;
      rows.push(entry.row(now, this.#costOf));
    }
    return rows;
  }

  /** The newest version handed out: a feed that has it has every change so far. */
  get version(): number {
    return this.#version;
  }

  get liveCount(): number {
    let count = 0;
    for (const entry of this.#ring) if (entry?.live) count += 1;
    return count;
  }

  /** One request, as its user (or an admin, `user` undefined) may see it. */
  find(requestId: string, user: string | undefined): { outcome: InspectedRequest; row: InspectorRow } | undefined {
    const entry = this.#listed(requestId);
    if (entry === undefined || (user !== undefined && entry.outcome.user !== user)) return undefined;
    return { outcome: entry.outcome, row: entry.row(Date.now(), this.#costOf) };
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

  #add(outcome: GenerationOutcome): InspectorEntry {
    const entry = new InspectorEntry(outcome, ++this.#version);
    entry.slot = this.#next;
    this.#ring[this.#next] = entry;
    this.#next = (this.#next + 1) % this.keep;
    this.#changed();
    return entry;
  }

  #listed(requestId: string): InspectorEntry | undefined {
    for (const entry of this.#ring) if (entry?.outcome.requestId === requestId) return entry;
    return undefined;
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
