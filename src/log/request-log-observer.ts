import type { GatewayConfig } from '../config/config-types.js';
import { redactSecrets } from '../core/redact-secrets.js';
import type { Usage } from '../core/usage.js';
import type { Warning } from '../core/warning.js';
import type { GenerationObserver, GenerationOutcome, TokenCountOutcome } from '../gateway/generation-outcome.js';
import { isoTime } from './iso-time.js';
import { loadPriceDataset, ModelPrices, priceDatasetLoaded } from './model-prices.js';
import type { RequestLogEntry } from './request-log.js';
import type { RequestLogSink } from './request-log-store.js';
import type { RequestLogBodies } from './request-log-writer.js';

/**
 * One log entry per generation, queued for the writer when the generation is over. Building it
 * reads the usage (cheap: the passthrough tap reads only the events that carry it) and, only with
 * `log.bodies`, decodes the bodies.
 */
export class RequestLogObserver implements GenerationObserver {
  #writer: RequestLogSink;
  #getConfig: () => GatewayConfig;
  #forceBodies: boolean;
  #prices: ModelPrices | undefined;
  #pricesConfig: GatewayConfig | undefined;

  constructor(options: { writer: RequestLogSink; getConfig: () => GatewayConfig; bodies?: boolean }) {
    this.#writer = options.writer;
    this.#getConfig = options.getConfig;
    this.#forceBodies = options.bodies ?? false;
  }

  finished(outcome: GenerationOutcome): void | Promise<void> {
    // The first request waits once for the price list, which is not loaded at start.
    if (outcome.upstream && !priceDatasetLoaded()) return loadPriceDataset().then(() => this.#log(outcome));
    this.#log(outcome);
  }

  #log(outcome: GenerationOutcome): void {
    const config = this.#getConfig();
    const usage = outcome.usage();
    const upstream = outcome.upstream;
    const cost = upstream ? this.#pricesOf(config).costOf(config.providers.find((provider) => provider.id === upstream.provider), upstream.provider, upstream.model, usage) : null;
    const entry = createRequestLogEntry({
      requestId: outcome.requestId,
      startedAt: outcome.startedAt,
      user: outcome.user,
      protocol: outcome.protocol,
      endpoint: outcome.endpoint,
      model: outcome.model,
      upstream: upstream ? `${upstream.provider}/${upstream.model}` : null,
      attempts: outcome.attempts.length,
      mode: upstream?.mode ?? null,
      status: outcome.status,
      stream: outcome.stream,
      durationMs: outcome.durationMs,
      ttfbMs: outcome.ttfbMs ?? null,
      usage,
      costUsd: cost,
      interruptedReason: outcome.interrupted ?? null,
      resumedFrom: outcome.resumedFrom ?? null,
      warnings: outcome.warnings,
      userAgent: outcome.userAgent ?? null,
    });
    this.#writer.append(entry, this.#forceBodies || config.log.bodies ? bodiesOf(outcome, config.log.bodyMaxBytes) : undefined);
  }

  counted(outcome: TokenCountOutcome): void {
    const tokens = outcome.inputTokens ?? null;
    this.#writer.append({
      request_id: outcome.requestId,
      time: isoTime(outcome.startedAt),
      user: outcome.user,
      protocol: outcome.protocol,
      endpoint: outcome.endpoint,
      model: outcome.model,
      upstream: null,
      attempts: 0,
      mode: null,
      status: outcome.status,
      stream: false,
      duration_ms: outcome.durationMs,
      ttfb_ms: null,
      input_tokens: tokens,
      output_tokens: null,
      cached_tokens: null,
      cache_write_tokens: null,
      reasoning_tokens: null,
      // Counted locally: it costs nothing.
      cost_usd: 0,
      interrupted_reason: null,
      resumed_from: null,
      warnings: [],
      user_agent: outcome.userAgent ?? null,
    });
  }

  /** Prices follow the config: a reload with new `prices` starts a fresh cache. */
  #pricesOf(config: GatewayConfig): ModelPrices {
    if (this.#prices === undefined || this.#pricesConfig !== config) {
      this.#prices = new ModelPrices(config);
      this.#pricesConfig = config;
    }
    return this.#prices;
  }
}

/** The entry of one request, in the log's field names and order. */
export function createRequestLogEntry(fields: {
  requestId: string;
  startedAt: number;
  user: string;
  protocol: string;
  endpoint: string;
  model: string;
  upstream: string | null;
  attempts: number;
  mode: RequestLogEntry['mode'];
  status: number;
  stream: boolean;
  durationMs: number;
  ttfbMs: number | null;
  usage: Usage;
  costUsd: number | null;
  interruptedReason: string | null;
  resumedFrom: string | null;
  warnings: readonly Warning[];
  userAgent: string | null;
}): RequestLogEntry {
  const { usage } = fields;
  return {
    request_id: fields.requestId,
    time: isoTime(fields.startedAt),
    user: fields.user,
    protocol: fields.protocol,
    endpoint: fields.endpoint,
    model: fields.model,
    upstream: fields.upstream,
    attempts: fields.attempts,
    mode: fields.mode,
    status: fields.status,
    stream: fields.stream,
    duration_ms: fields.durationMs,
    ttfb_ms: fields.ttfbMs,
    input_tokens: usage.input.total ?? null,
    output_tokens: usage.output.total ?? null,
    cached_tokens: usage.input.cacheRead ?? null,
    cache_write_tokens: usage.input.cacheWrite ?? null,
    reasoning_tokens: usage.output.reasoning ?? null,
    cost_usd: fields.costUsd,
    interrupted_reason: fields.interruptedReason,
    resumed_from: fields.resumedFrom,
    warnings: fields.warnings.map((warning) => `${warning.type} ${warning.feature}${warning.details ? `: ${warning.details}` : ''}`),
    user_agent: fields.userAgent,
  };
}

function bodiesOf(outcome: GenerationOutcome, maxBytes: number): RequestLogBodies {
  const secrets = outcome.secrets();
  const keep = (text: string) => capped(redactSecrets(text, secrets), maxBytes);
  const upstreamRequest = outcome.upstreamRequestBodyText();
  return { request: keep(outcome.requestBodyText()), upstream_request: upstreamRequest === undefined ? null : keep(upstreamRequest), response: keep(outcome.responseBodyText()) };
}

/** Cut at `maxBytes` of UTF-8 (at a character's start), saying how much was left out. */
export function capped(text: string, maxBytes: number): string {
  if (text.length <= maxBytes / 3) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
  return `${bytes.subarray(0, end).toString('utf8')}… [${bytes.length - end} bytes more]`;
}
