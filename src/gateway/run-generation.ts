import type { DisconnectPolicy, GatewayConfig } from '../config/config-types.js';
import { createStreamCollector, type StreamCollector } from '../core/collect-stream.js';
import { toGatewayError, type GatewayError } from '../core/gateway-error.js';
import type { Protocol } from '../core/protocol.js';
import type { Usage } from '../core/usage.js';
import { formatWarnings, type Warning } from '../core/warning.js';
import type { ProtocolCodec, ResponseContext } from '../protocols/protocol-codec.js';
import type { ProtocolDescriptor } from '../protocols/protocol-descriptor.js';
import type { ProtocolRegistry } from '../protocols/protocol-registry.js';
import type { JsonObject } from '../protocols/read-fields.js';
import type { UpstreamClient } from '../providers/upstream-client.js';
import type { ClientConnection } from './client-connection.js';
import { collectJsonResponse } from './collect-json-response.js';
import type { AttemptReport, GenerationObserver, GenerationOutcome } from './generation-outcome.js';
import type { InflightRegistry } from './inflight.js';
import { createInterruption, type Interruption } from './interruption.js';
import type { ModelCatalog } from './model-catalog.js';
import { openAttempt, type OpenedUpstream } from './open-attempt.js';
import { planGeneration, type GenerationAttempt, type GenerationPlan } from './plan-generation.js';
import type { InterruptedReason } from './recovery-sink.js';
import { renderError } from './render-error.js';
import { requestSecrets } from './request-secrets.js';
import { streamToClient, type StreamBody } from './stream-to-client.js';

export interface GatewayLogger {
  /** Whether request lines are wanted at all: nothing is formatted for a quiet logger. */
  readonly enabled: boolean;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface GatewayDeps {
  getConfig(): GatewayConfig;
  protocols: ProtocolRegistry;
  upstream: UpstreamClient;
  catalog: ModelCatalog;
  inflight: InflightRegistry;
  /** Told how each generation went (the recoveries, the log line); never slow or break it. */
  observers: readonly GenerationObserver[];
  logger: GatewayLogger;
  now(): number;
}

export interface GenerationInput {
  inbound: Protocol;
  /** The path the client called. */
  endpoint: string;
  body: JsonObject;
  /** The body as it arrived, for a passthrough and a recovery record (kept as bytes, off the JS heap). */
  bodyBytes: Buffer;
  /** The client's query string with its `?`, or ''. */
  search: string;
  /** Gemini names the model and streaming in the path. */
  pathModel?: string;
  pathStream?: boolean;
  clientHeader: (name: string) => string | undefined;
  user: string;
  /** The client's key: sent upstream only to providers with `forwardClientKey`; never logged or stored. */
  clientKey?: string;
  requestId: string;
  /** Whether the client has gone away. */
  client: ClientConnection;
  /** The `x-switchyard-on-disconnect` header, when sent. */
  disconnectPolicy?: DisconnectPolicy;
}

export type GenerationOutput =
  | { kind: 'json'; status: number; headers: Record<string, string>; body: string | Buffer }
  | { kind: 'stream'; status: number; headers: Record<string, string>; body: StreamBody };

// No `connection` header: Node writes the true one (kept, with the idle timeout clients use to stop
// reusing a connection the server is about to close, or `close` when the client asked for it).
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

/**
 * One generation request, start to end: decode it, plan its attempts (pure), open them in order
 * until one answers, answer in the client's protocol (a stream as it comes, or JSON), and hand the
 * outcome to the observers.
 */
export async function runGeneration(deps: GatewayDeps, input: GenerationInput): Promise<GenerationOutput> {
  const inbound = deps.protocols.get(input.inbound);
  const run = new GenerationRun(deps, input, inbound);
  let plan: GenerationPlan;
  try {
    const decoded = inbound.codec.decodeRequest(input.body, { pathModel: input.pathModel, stream: input.pathStream });
    plan = planGeneration({
      inbound,
      decoded,
      body: input.body,
      search: input.search,
      config: run.config,
      protocols: deps.protocols,
      listed: (provider) => deps.catalog.modelsOf(provider),
    });
  } catch (error) {
    // The request is wrong for every provider (a 400 or 404): nothing went upstream.
    return run.refuse(toGatewayError(error));
  }
  try {
    return await run.answer(plan, input);
  } catch (error) {
    // Nothing of the gateway's own should throw here; should it, the client gets a 500 and the log
    // its cause, and whatever was opened is released.
    return run.refuse(toGatewayError(error));
  }
}

/**
 * One generation as it runs, and its outcome once over. A class, not a factory of closures: it
 * lives as long as the stream (CONTRIBUTING.md, "Code"), and it holds none of the client's parsed
 * body (a record reads the bytes again).
 */
class GenerationRun implements GenerationOutcome {
  readonly requestId: string;
  readonly user: string;
  readonly protocol: Protocol;
  readonly startedAt: number;
  readonly config: GatewayConfig;
  model: string;
  stream = false;
  readonly endpoint: string;
  readonly userAgent: string | undefined;
  upstream: GenerationOutcome['upstream'];
  readonly attempts: AttemptReport[] = [];
  status = 0;
  durationMs = 0;
  ttfbMs: number | undefined;
  warnings: readonly Warning[] = [];
  error: GatewayError | undefined;
  interrupted: InterruptedReason | undefined;

  #deps: GatewayDeps;
  #codec: ProtocolCodec;
  #bodyBytes: Buffer;
  #clientKey: string | undefined;
  #context: ResponseContext | undefined;
  /** What the response holds so far; a passthrough stream brings its own tap. */
  #collector: StreamCollector | undefined;
  /** The usage of a JSON answer, read from it only when asked. */
  #usage: (() => Usage) | undefined;
  /** A JSON answer's body, as the client got it. */
  #answer: string | Buffer | undefined;
  #interruption: Interruption | undefined;
  /** The attempt that answered (or the last tried). */
  #attempt: GenerationAttempt | undefined;

  constructor(deps: GatewayDeps, input: GenerationInput, inbound: ProtocolDescriptor) {
    this.#deps = deps;
    this.#codec = inbound.codec;
    this.config = deps.getConfig();
    this.startedAt = deps.now();
    this.requestId = input.requestId;
    this.user = input.user;
    this.protocol = inbound.id;
    this.model = input.pathModel ?? (typeof input.body.model === 'string' ? input.body.model : '');
    this.endpoint = input.endpoint;
    this.userAgent = input.clientHeader('user-agent');
    this.#bodyBytes = input.bodyBytes;
    this.#clientKey = input.clientKey;
  }

  requestBodyText(): string {
    return this.#bodyBytes.toString('utf8');
  }

  upstreamRequestBodyText(): string | undefined {
    const call = this.#attempt?.call;
    if (!call) return undefined;
    return (call.body ?? this.#bodyBytes).toString('utf8');
  }

  responseBodyText(): string {
    if (this.#answer !== undefined) return this.#answer.toString();
    if (!this.#collector || !this.#context) return '';
    return JSON.stringify(this.#codec.encodeResponse(this.#collector.result(), this.#context));
  }

  usage(): Usage {
    if (this.#usage) return this.#usage();
    return this.#collector ? this.#collector.result().usage : { input: {}, output: {} };
  }

  /** Every key no text may carry out: asked for only when an upstream's error is to be passed on. */
  secrets = (): readonly string[] => requestSecrets(this.config, this.#clientKey);

  /** The request failed before any attempt: its error, in the client's protocol. */
  async refuse(error: GatewayError): Promise<GenerationOutput> {
    await this.#finish(error.status, error);
    return this.#errorOutput(error, undefined, {});
  }

  async answer(plan: GenerationPlan, input: GenerationInput): Promise<GenerationOutput> {
    const { request } = plan;
    this.model = request.model;
    this.stream = request.stream;
    this.#context = { requestId: this.requestId, created: Math.floor(this.startedAt / 1000), model: request.model, request: this.#codec.responseRequestOf(request) };
    this.#collector = createStreamCollector();
    const first = plan.attempts[0];
    const interruption = createInterruption({
      client: input.client,
      policy: input.disconnectPolicy ?? first.provider.onDisconnect ?? this.config.recoveries.onDisconnect,
      drainTimeoutMs: this.config.recoveries.drainTimeoutMs,
      inflight: this.#deps.inflight,
    });
    this.#interruption = interruption;
    interruption.whenDraining(() => this.#draining());

    let attempt = first;
    let opened: OpenedUpstream | undefined;
    let failure: GatewayError | undefined;
    for (attempt of plan.attempts) {
      this.#use(attempt);
      const began = this.#deps.now();
      try {
        opened = await openAttempt(attempt, { request, bodyBytes: input.bodyBytes, clientHeader: input.clientHeader, clientKey: input.clientKey, signal: interruption.signal, secrets: this.secrets }, this.#deps.upstream);
        this.attempts.push(report(attempt, this.#deps.now() - began, opened.kind === 'error' ? opened.error : undefined));
        break;
      } catch (error) {
        // Not reached, timed out, or stopped before its response head: the next attempt, if any.
        failure = interruption.shutdownError() ?? toGatewayError(error);
        this.attempts.push(report(attempt, this.#deps.now() - began, failure));
      }
    }
    const headers = this.#headers(attempt);
    if (opened === undefined) {
      const error = failure!;
      await this.#finish(error.status, error, interruption.reasonFor(error));
      return this.#errorOutput(error, attempt, headers);
    }
    if (opened.kind === 'error') {
      // The client gets the upstream's error in full: not an interruption.
      await this.#finish(opened.error.status, opened.error);
      return this.#errorOutput(opened.error, attempt, headers);
    }

    if (opened.kind === 'passthrough-stream') this.#collector = opened.source.tap;
    if (opened.kind === 'passthrough-stream' || (request.stream && opened.kind === 'parts')) {
      const body = streamToClient({
        opened,
        codec: this.#codec,
        context: this.#context,
        collector: this.#collector,
        client: input.client,
        stoppedBy: () => interruption.shutdownError(),
        onFirstByte: () => this.#firstByte(),
        onEnd: (error) => this.#finish(200, error, interruption.reasonFor(error)),
      });
      this.#started();
      return { kind: 'stream', status: 200, headers: Object.assign({}, SSE_HEADERS, headers), body };
    }

    try {
      const response = await collectJsonResponse(opened, this.#codec, this.#context, this.#collector);
      this.#answer = response.body;
      this.#usage = response.usage;
      this.#started();
      this.#firstByte();
      await this.#finish(200, undefined, interruption.reasonFor(undefined));
      return { kind: 'json', status: 200, headers: Object.assign({ 'content-type': 'application/json' }, headers), body: response.body };
    } catch (error) {
      const cut = interruption.shutdownError() ?? toGatewayError(error);
      await this.#finish(cut.status, cut, interruption.reasonFor(cut));
      return this.#errorOutput(cut, attempt, headers);
    }
  }

  #use(attempt: GenerationAttempt): void {
    this.#attempt = attempt;
    this.upstream = { provider: attempt.provider.id, model: attempt.model, mode: attempt.mode };
    this.warnings = attempt.warnings;
  }

  #headers(attempt: GenerationAttempt): Record<string, string> {
    // A model name is the client's text: a character a header cannot carry would fail the whole
    // answer, and a name of kilobytes would overflow the client's header limit (16 kB for undici).
    const headers: Record<string, string> = { 'x-switchyard-upstream': `${attempt.provider.id}/${attempt.model}`.slice(0, 512).replace(/[^\x20-\x7e]/g, '?') };
    if (attempt.warnings.length > 0) headers['x-switchyard-warnings'] = formatWarnings(attempt.warnings);
    return headers;
  }

  #firstByte(): void {
    this.ttfbMs ??= this.#deps.now() - this.startedAt;
  }

  /** The response is under way: observers that follow responses as they grow learn it now. */
  #started(): void {
    for (const observer of this.#deps.observers) if (observer.started) this.#call(() => observer.started!(this), 'start');
  }

  /** The client left under `drain`: observers learn it now, while the upstream goes on. */
  #draining(): void {
    // Called from the client's `close` event: a failure here must not escape into it.
    for (const observer of this.#deps.observers) if (observer.draining) this.#call(() => observer.draining!(this), 'drain');
  }

  #call(notify: () => void, moment: string): void {
    try {
      notify();
    } catch (error) {
      this.#deps.logger.error(`an observer failed at the ${moment} of ${this.requestId}: ${String(error)}`);
    }
  }

  /** The generation is over: its outcome goes to the observers, then its interruption is released. */
  async #finish(status: number, error: GatewayError | undefined, interrupted?: InterruptedReason): Promise<void> {
    this.status = status;
    this.error = error;
    this.interrupted = interrupted;
    this.durationMs = this.#deps.now() - this.startedAt;
    await Promise.all(this.#deps.observers.map((observer) => this.#tell(observer)));
    this.#interruption?.end();
  }

  async #tell(observer: GenerationObserver): Promise<void> {
    try {
      await observer.finished(this);
    } catch (error) {
      this.#deps.logger.error(`an observer failed on ${this.requestId}: ${String(error)}`);
    }
  }

  #errorOutput(error: GatewayError, attempt: GenerationAttempt | undefined, headers: Record<string, string>): GenerationOutput {
    const rendered = renderError(this.#codec, error, attempt?.upstream?.id);
    return { kind: 'json', status: rendered.status, headers: Object.assign({}, headers, rendered.headers), body: rendered.body };
  }
}

function report(attempt: GenerationAttempt, ms: number, error: GatewayError | undefined): AttemptReport {
  const entry: AttemptReport = { provider: attempt.provider.id, model: attempt.model, mode: attempt.mode, ms };
  if (error) {
    if (error.upstream) entry.status = error.upstream.status;
    entry.error = error.message;
  }
  return entry;
}
