import type { GatewayConfig } from '../../config/config-types.js';
import type { GenerationObserver, GenerationOutcome, KeptBodies } from '../../gateway/generation-outcome.js';
import type { Usage } from '../../core/usage.js';
import { ModelPrices } from '../../log/model-prices.js';

/** One request as the page lists it. Token counts are null when the upstream did not report them. */
export interface InspectorRow {
  request_id: string;
  /** Grows with every change of the entry: the feed sends rows newer than what the page has. */
  version: number;
  time: string;
  user: string;
  protocol: string;
  endpoint: string;
  model: string;
  upstream: string | null;
  mode: string | null;
  /** 0 while the response is under way. */
  status: number;
  live: boolean;
  stream: boolean;
  duration_ms: number;
  ttfb_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cached_tokens: number | null;
  reasoning_tokens: number | null;
  cost_usd: number | null;
  interrupted_reason: string | null;
  warnings: number;
  /** The size of the response so far (a stream's grows while it runs). */
  response_chars: number | null;
}

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
  | 'requestBodyText'
  | 'upstreamRequestBodyText'
  | 'responseBodyText'
  | 'usage'
  | 'secrets'
> & { readonly error: { code: string; status: number; message: string } | undefined };

/**
 * A finished request as the inspector keeps it: its figures, and its bodies as they came
 * (`keepBodies`: bytes, and the response's own material), turned into text only when the page
 * opens the request. Holding the outcome itself for the last 200 requests kept each one's whole
 * graph alive past the young generation (0.82 of the throughput of `inspector.keep: 0` in a paired
 * run), and turning every body into text when a request ended cost up to a third of a stream's CPU.
 */
class FinishedRequest implements InspectedRequest {
  readonly requestId: string;
  readonly user: string;
  readonly protocol: string;
  readonly model: string;
  readonly endpoint: string;
  readonly stream: boolean;
  readonly startedAt: number;
  readonly upstream: GenerationOutcome['upstream'];
  readonly attempts: GenerationOutcome['attempts'];
  readonly status: number;
  readonly durationMs: number;
  readonly ttfbMs: number | undefined;
  readonly warnings: GenerationOutcome['warnings'];
  readonly interrupted: GenerationOutcome['interrupted'];
  readonly error: InspectedRequest['error'];
  /** As they came: converted to text only when the page opens this request. */
  readonly #bodies: KeptBodies;
  readonly #usage: Usage;
  readonly #secrets: readonly string[];

  constructor(outcome: GenerationOutcome) {
    this.requestId = outcome.requestId;
    this.user = outcome.user;
    this.protocol = outcome.protocol;
    this.model = outcome.model;
    this.endpoint = outcome.endpoint;
    this.stream = outcome.stream;
    this.startedAt = outcome.startedAt;
    this.upstream = outcome.upstream;
    this.attempts = outcome.attempts;
    this.status = outcome.status;
    this.durationMs = outcome.durationMs;
    this.ttfbMs = outcome.ttfbMs;
    this.warnings = outcome.warnings;
    this.interrupted = outcome.interrupted;
    const error = outcome.error;
    this.error = error === undefined ? undefined : { code: error.code, status: error.status, message: error.message };
    this.#bodies = outcome.keepBodies();
    this.#usage = outcome.usage();
    this.#secrets = outcome.secrets();
  }

  requestBodyText(): string {
    return this.#bodies.request.toString('utf8');
  }

  upstreamRequestBodyText(): string | undefined {
    return this.#bodies.upstreamRequest?.toString('utf8');
  }

  responseBodyText(): string {
    return this.#bodies.response();
  }

  usage(): Usage {
    return this.#usage;
  }

  secrets(): readonly string[] {
    return this.#secrets;
  }
}

/** A request the inspector keeps, read only when the page asks. */
class InspectorEntry {
  outcome: InspectedRequest;
  version: number;
  live = true;
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
      time: new Date(outcome.startedAt).toISOString(),
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
  readonly #entries = new Map<string, InspectorEntry>();
  #version = 0;
  readonly #listeners = new Set<() => void>();
  readonly #closers = new Set<() => void>();
  readonly #getConfig: () => GatewayConfig;
  #prices: { config: GatewayConfig; prices: ModelPrices } | undefined;

  constructor(keep: number, getConfig: () => GatewayConfig) {
    this.keep = keep;
    this.#getConfig = getConfig;
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
    this.#add(outcome);
  }

  finished(outcome: GenerationOutcome): void {
    const entry = this.#entries.get(outcome.requestId) ?? this.#add(outcome);
    if (entry.outcome !== outcome) return;
    entry.outcome = new FinishedRequest(outcome);
    entry.live = false;
    entry.touch(++this.#version);
    this.#changed();
  }

  /** Rows newest first, of one user only when `user` is given, changed after `after`. */
  rows(user: string | undefined, after = 0, now = Date.now()): InspectorRow[] {
    const rows: InspectorRow[] = [];
    for (const entry of this.#entries.values()) {
      if (user !== undefined && entry.outcome.user !== user) continue;
      // A live entry's row grows while nothing touches it: always sent.
      if (entry.version <= after && !entry.live) continue;
      rows.push(entry.row(now, this.#costOf));
    }
    return rows.reverse();
  }

  /** The newest version handed out: a feed that has it has every change so far. */
  get version(): number {
    return this.#version;
  }

  get liveCount(): number {
    let count = 0;
    for (const entry of this.#entries.values()) if (entry.live) count += 1;
    return count;
  }

  /** One request, as its user (or an admin, `user` undefined) may see it. */
  find(requestId: string, user: string | undefined): { outcome: InspectedRequest; row: InspectorRow } | undefined {
    const entry = this.#entries.get(requestId);
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
    this.#entries.delete(outcome.requestId);
    this.#entries.set(outcome.requestId, entry);
    // A Map iterates in insertion order: its first entry is the oldest.
    while (this.#entries.size > this.keep) this.#entries.delete(this.#entries.keys().next().value!);
    this.#changed();
    return entry;
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
