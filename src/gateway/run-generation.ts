import type { DisconnectPolicy, GatewayConfig } from '../config/config-types.js';
import { createStreamCollector, type StreamCollector } from '../core/collect-stream.js';
import { GatewayError, toGatewayError } from '../core/gateway-error.js';
import type { Protocol } from '../core/protocol.js';
import type { Usage } from '../core/usage.js';
import type { GenerateRequest } from '../core/generate-request.js';
import type { GenerateResponse } from '../core/generate-response.js';
import { formatWarnings, type Warning } from '../core/warning.js';
import type { ProtocolCodec, ResponseContext } from '../protocols/protocol-codec.js';
import type { ProtocolDescriptor } from '../protocols/protocol-descriptor.js';
import type { ProtocolRegistry } from '../protocols/protocol-registry.js';
import type { JsonObject } from '../protocols/read-fields.js';
import { countRequestTokens, loadTokenCounter } from '../providers/count-tokens.js';
import { describeKey, type KeyPool } from '../providers/key-pool.js';
import type { UpstreamClient } from '../providers/upstream-client.js';
import type { ClientConnection } from './client-connection.js';
import { collectJsonResponse } from './collect-json-response.js';
import type { AttemptReport, GenerationObserver, GenerationOutcome, OutcomeBodies } from './generation-outcome.js';
import type { InflightRegistry } from './inflight.js';
import { createInterruption, type Interruption } from './interruption.js';
import type { ModelCatalog } from './model-catalog.js';
import { openAttempt, type AttemptContext, type OpenedUpstream } from './open-attempt.js';
import { collectEvents } from './passthrough-source.js';
import { planGeneration, type GenerationAttempt, type GenerationPlan } from './plan-generation.js';
import type { ProviderHealth } from './provider-health.js';
import { judgeStatus, pause, retryAfterMs, retryDelayMs } from './retry-policy.js';
import type { InterruptedReason } from './recovery-sink.js';
import type { ResumedAnswer, ResumeRecord, Resumer } from './resume-generation.js';
import { ResumedStream } from './resume-stream.js';
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
  /** Answers a retry from the recovery record of the same request (resume on retry); none without a store. */
  resumer?: Resumer;
  /** Which key of a provider's pool a request uses; the pools' state. */
  keys: KeyPool;
  /** Which providers are cooling down after failures in a row. */
  health: ProviderHealth;
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
  /** false: the `x-switchyard-resume: off` header; the request goes upstream and leaves any record unused. */
  resume?: boolean;
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
    const decodeOptions = { pathModel: input.pathModel, stream: input.pathStream };
    const decoded = inbound.codec.decodeRequest(input.body, decodeOptions);
    plan = planGeneration({
      inbound,
      decoded,
      body: input.body,
      search: input.search,
      bodyBytes: input.bodyBytes,
      decodeOptions,
      config: run.config,
      protocols: deps.protocols,
      listed: (provider) => deps.catalog.modelsOf(provider),
      // Counted only when a route or a model limit reads it: the tokenizer costs per request.
      inputTokens: run.config.countsInputTokens ? countRequestTokens(decoded.request, await loadTokenCounter()) : undefined,
      clientHeader: input.clientHeader,
    });
  } catch (error) {
    // The request is wrong for every provider (a 400 or 404): nothing went upstream.
    return run.refuse(toGatewayError(error));
  }
  try {
    // Looked up in turn, with no promise: nearly every request has no record to resume from.
    const resumer = deps.resumer && input.resume !== false && run.config.recoveries.resume ? deps.resumer : undefined;
    if (resumer?.loading) await resumer.loading;
    const record = resumer?.take({ requestId: run.requestId, user: run.user, model: plan.request.model, protocol: run.protocol, body: input.body, now: run.startedAt, windowMs: run.config.recoveries.resumeWindowMs });
    const resumed = record ? await resumeFrom(resumer!, record, run, input, plan.request, inbound.codec) : undefined;
    if (resumed) return resumed;
    return await run.answer(plan, input);
  } catch (error) {
    // Nothing of the gateway's own should throw here; should it, the client gets a 500 and the log
    // its cause, and whatever was opened is released.
    return run.refuse(toGatewayError(error));
  }
}

/**
 * A retry of a request whose generation was interrupted, answered from the recovery record taken
 * for it (resume-generation.ts); none when the record turns out to have no whole answer, and the
 * request goes upstream.
 */
async function resumeFrom(resumer: Resumer, record: ResumeRecord, run: GenerationRun, input: GenerationInput, request: GenerateRequest, codec: ProtocolCodec): Promise<GenerationOutput | undefined> {
  const answer = await resumer.answer(record, codec, request.stream);
  return answer && run.answerResumed(record.requestId, request, answer, input.client);
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
  resumedFrom: string | undefined;

  #deps: GatewayDeps;
  #codec: ProtocolCodec;
  #bodyBytes: Buffer;
  #clientKey: string | undefined;
  #context: ResponseContext | undefined;
  /** What the response holds so far; a passthrough stream brings its own tap. */
  #collector: StreamCollector | undefined;
  /** The usage of a JSON answer, read from it only when asked. */
  #usage: (() => Usage) | undefined;
  /** A passthrough stream's events, while its tap has not decoded them. */
  #events: (() => readonly Buffer[] | undefined) | undefined;
  /** A JSON answer's body, as the client got it. */
  #answer: string | Buffer | undefined;
  #interruption: Interruption | undefined;
  /** The attempt that answered (or the last tried). */
  #attempt: GenerationAttempt | undefined;
  /** Set when the generation is over and its outcome goes to the observers. */
  #over = false;
  #finalUsage: Usage | undefined;
  /** A finished stream's response, rendered by the first observer that asked. */
  #finalText: string | undefined;

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
    if (this.#finalText !== undefined) return this.#finalText;
    if (!this.#collector || !this.#context) return '';
    const text = JSON.stringify(this.#codec.encodeResponse(this.#collector.result(), this.#context));
    // Once over, rendered once for every observer that asks (the inspector, the log's bodies).
    if (this.#over) this.#finalText = text;
    return text;
  }

  bodies(): OutcomeBodies {
    const call = this.#attempt?.call;
    const upstreamRequest = call ? (call.body ?? this.#bodyBytes) : undefined;
    return { request: this.#bodyBytes, upstreamRequest, response: this.#answer ?? this.#streamResponse() };
  }

  /**
   * A stream's response for `bodies`: a passthrough stream's events as they came, or the text,
   * rendered now. Rendered later instead, the response would hold what it is rendered from (the
   * collector's parts, or a tap's buffers) for as long as an observer keeps it: objects the
   * young-generation collections copy and promote, and full collections then sweep, which cost
   * more than rendering (CONTRIBUTING.md, "Code": what outlives a request).
   */
  #streamResponse(): OutcomeBodies['response'] {
    const events = this.#events?.();
    const codec = this.#codec;
    const context = this.#context;
    if (events === undefined || context === undefined) return this.responseBodyText();
    return { events, render: (text) => JSON.stringify(codec.encodeResponse(collectEvents(codec.createStreamDecoder(), [text]), context)) };
  }

  responseSoFar(): GenerateResponse {
    // A JSON answer is whole and in the client's protocol: read back with the same codec.
    if (this.#answer !== undefined) return this.#codec.decodeResponse(JSON.parse(this.#answer.toString()));
    return this.#collector ? this.#collector.result() : { choices: [], usage: { input: {}, output: {} } };
  }

  usage(): Usage {
    // Once over, the usage no longer changes: worked out once for all the observers that ask.
    if (this.#finalUsage) return this.#finalUsage;
    const usage = this.#usage ? this.#usage() : this.#collector ? this.#collector.result().usage : { input: {}, output: {} };
    if (this.#over) this.#finalUsage = usage;
    return usage;
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

    const opened = await this.#open(plan, input, interruption);
    const attempt = this.#attempt!;
    const headers = this.#headers(attempt);
    if (GatewayError.is(opened)) {
      await this.#finish(opened.status, opened, interruption.reasonFor(opened));
      return this.#errorOutput(opened, attempt, headers);
    }
    if (opened.kind === 'error') {
      // The client gets the upstream's error in full: not an interruption.
      await this.#finish(opened.error.status, opened.error);
      return this.#errorOutput(opened.error, attempt, headers);
    }

    if (opened.kind === 'passthrough-stream') {
      const { source } = opened;
      this.#collector = source.tap;
      this.#usage = () => source.usage();
      this.#events = () => source.events();
    }
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

  /** Answered from the recovery record `from` (resume-generation.ts): no attempt, no upstream. */
  async answerResumed(from: string, request: GenerateRequest, answer: ResumedAnswer, client: ClientConnection): Promise<GenerationOutput> {
    this.model = request.model;
    this.stream = request.stream;
    this.resumedFrom = from;
    const headers = { 'x-switchyard-resumed': from };
    if (answer.kind === 'json') {
      this.#answer = answer.body;
      this.#started();
      this.#firstByte();
      await this.#finish(200, undefined);
      return { kind: 'json', status: 200, headers: Object.assign({ 'content-type': 'application/json' }, headers), body: answer.body };
    }
    const context: ResponseContext = { requestId: this.requestId, created: Math.floor(this.startedAt / 1000), model: request.model, request: this.#codec.responseRequestOf(request) };
    const body = new ResumedStream({
      source: answer.source,
      encoder: this.#codec.createStreamEncoder(context),
      client,
      onFirstByte: () => this.#firstByte(),
      onEnd: (error) => this.#finish(200, error),
    });
    this.#started();
    return { kind: 'stream', status: 200, headers: Object.assign({}, SSE_HEADERS, headers), body };
  }

  /**
   * The plan's targets in order until one answers: each tried up to its `retry.attempts` times
   * (waiting its `retry-after`, or backing off), a key of its pool refused or rate-limited
   * swapped for the next at once, a target cooling down skipped while a later one can serve.
   * Nothing has reached the client yet. Returns what answered (or the error the client gets at
   * once: a 400, a 404), else the last failure, its message listing what was tried.
   */
  async #open(plan: GenerationPlan, input: GenerationInput, interruption: Interruption): Promise<OpenedUpstream | GatewayError> {
    const deps = this.#deps;
    const targets = plan.attempts;
    const context: AttemptContext = { request: plan.request, bodyBytes: input.bodyBytes, clientHeader: input.clientHeader, clientKey: input.clientKey, signal: interruption.signal, secrets: this.secrets };
    let last: OpenedUpstream | GatewayError | undefined;
    for (let index = 0; index < targets.length; index += 1) {
      const attempt = targets[index];
      const { provider } = attempt;
      if (targets.length > 1 && this.#skipped(targets, index)) continue;
      if (attempt.deferred !== undefined && !prepareAttempt(attempt)) continue;
      const retry = provider.retry ?? this.config.retry;
      const pooled = provider.apiKeys !== undefined && !provider.forwardClientKey;
      let tries = 0;
      let waitMs = 0;
      let tried: string[] | undefined;
      for (;;) {
        if (waitMs > 0) await pause(waitMs, interruption.signal);
        if (interruption.signal.aborted) return interruption.shutdownError() ?? (GatewayError.is(last) ? last : stoppedError());
        const key = provider.forwardClientKey ? undefined : deps.keys.pick(provider, deps.now(), tried);
        // Every key of the pool is set aside (or tried by this request): the provider cannot serve.
        if (pooled && key === undefined) break;
        this.#use(attempt);
        const began = deps.now();
        let status: number | undefined;
        let advisedMs: number | undefined;
        try {
          const opened = await openAttempt(attempt, context, deps.upstream, key);
          this.attempts.push(report(attempt, deps.now() - began, opened.kind === 'error' ? opened.error : undefined, waitMs));
          if (opened.kind !== 'error') {
            deps.health.succeeded(provider);
            return opened;
          }
          last = opened;
          status = opened.status;
          if (judgeStatus(status, retry) === 'client') return opened;
          advisedMs = retryAfterMs(opened.error.retryAfter, deps.now());
        } catch (error) {
          // Not reached, reset, timed out, or stopped before its response head.
          last = interruption.shutdownError() ?? toGatewayError(error);
          this.attempts.push(report(attempt, deps.now() - began, last, waitMs));
          if (interruption.signal.aborted) return last;
        }
        waitMs = 0;
        if (pooled && key !== undefined && (status === 401 || status === 403 || status === 429)) {
          if (status === 429) deps.keys.rest(provider, key, deps.now() + (advisedMs ?? KEY_REST_MS));
          else if (deps.keys.setAside(provider, key)) {
            deps.logger.warn(`provider '${provider.id}' refused its key ${describeKey(key)} (HTTP ${status}): set aside until the config changes`);
          }
          // The next key of the pool, at once: not a try of the target.
          (tried ??= []).push(key);
          continue;
        }
        tries += 1;
        if (tries >= retry.attempts) break;
        const delay = retryDelayMs(tries + 1, advisedMs, retry, Math.random);
        // The upstream asks for a longer wait than the config allows: the next target, at once.
        if (delay === undefined) break;
        waitMs = delay;
      }
      deps.health.failed(provider, deps.now(), provider.cooldown ?? this.config.cooldown);
    }
    if (last === undefined) {
      // Only keys set aside before this request: the first target's refusal, as its own would be.
      const provider = targets[0].provider;
      this.#use(targets[0]);
      last = new GatewayError('upstream_error', `Every key of provider '${provider.id}' was refused by its upstream: check providers.${provider.id}.apiKey in the gateway's config.`, {
        status: 502,
        detailCode: 'upstream_credentials',
      });
    }
    return this.attempts.length > 1 ? listTried(last, this.attempts) : last;
  }

  /** A target cooling down is skipped while a later one in the plan is not. */
  #skipped(targets: readonly GenerationAttempt[], index: number): boolean {
    const now = this.#deps.now();
    if (!this.#deps.health.coolingDown(targets[index].provider, now)) return false;
    for (let later = index + 1; later < targets.length; later += 1) if (!this.#deps.health.coolingDown(targets[later].provider, now)) return true;
    return false;
  }

  #use(attempt: GenerationAttempt): void {
    this.#attempt = attempt;
    this.upstream = { provider: attempt.provider.id, model: attempt.model, mode: attempt.mode };
    this.warnings = attempt.warnings;
  }

  #headers(attempt: GenerationAttempt): Record<string, string> {
    // A model name is the client's text: a character a header cannot carry would fail the whole
    // answer, and a name of kilobytes would overflow the client's header limit (16 kB for undici).
    const headers: Record<string, string> = {
      'x-switchyard-upstream': `${attempt.provider.id}/${attempt.model}`.slice(0, 512).replace(/[^\x20-\x7e]/g, '?'),
      'x-switchyard-attempts': ATTEMPT_COUNTS[this.attempts.length] ?? String(this.attempts.length),
    };
    if (attempt.warnings.length > 0) headers['x-switchyard-warnings'] = formatWarnings(attempt.warnings);
    return headers;
  }

  #firstByte(): void {
    this.ttfbMs ??= this.#deps.now() - this.startedAt;
  }

  /** The response is under way: observers that follow responses as they grow learn it now. */
  #started(): void {
    this.#notify('started', 'at the start of');
  }

  /** The client left under `drain`: observers learn it now, while the upstream goes on. */
  #draining(): void {
    // Called from the client's `close` event: a failure here must not escape into it.
    this.#notify('draining', 'at the drain of');
  }

  /** Tells the observers that follow this moment, in turn, with no closure per observer. */
  #notify(moment: 'started' | 'draining', words: string): void {
    for (const observer of this.#deps.observers) {
      const notify = observer[moment];
      if (notify === undefined) continue;
      try {
        notify.call(observer, this);
      } catch (error) {
        this.#observerFailed(words, error);
      }
    }
  }

  #observerFailed(moment: string, error: unknown): void {
    this.#deps.logger.error(`an observer failed ${moment} ${this.requestId}: ${String(error)}`);
  }

  /** The generation is over: its outcome goes to the observers, then its interruption is released. */
  async #finish(status: number, error: GatewayError | undefined, interrupted?: InterruptedReason): Promise<void> {
    this.status = status;
    this.error = error;
    this.interrupted = interrupted;
    this.durationMs = this.#deps.now() - this.startedAt;
    this.#over = true;
    // Called in turn, with no promise per observer: only those that return one are waited for.
    let waiting: Promise<void>[] | undefined;
    for (const observer of this.#deps.observers) {
      try {
        const settled = observer.finished(this);
        if (settled) (waiting ??= []).push(settled.catch((error: unknown) => this.#observerFailed('on', error)));
      } catch (error) {
        this.#observerFailed('on', error);
      }
    }
    if (waiting) await Promise.all(waiting);
    this.#interruption?.end();
  }

  #errorOutput(error: GatewayError, attempt: GenerationAttempt | undefined, headers: Record<string, string>): GenerationOutput {
    const rendered = renderError(this.#codec, error, attempt?.upstream?.id);
    return { kind: 'json', status: rendered.status, headers: Object.assign({}, headers, rendered.headers), body: rendered.body };
  }
}

/**
 * Makes a fallback's upstream request, only now that it is to be tried. False when the request
 * cannot be encoded for it: the plan left such a target out while another could serve, and so
 * does the loop (the targets before it have answered with their errors already).
 */
function prepareAttempt(attempt: GenerationAttempt): boolean {
  try {
    attempt.deferred!.make(attempt);
    return true;
  } catch {
    return false;
  }
}

function report(attempt: GenerationAttempt, ms: number, error: GatewayError | undefined, waitMs: number): AttemptReport {
  const entry: AttemptReport = { provider: attempt.provider.id, model: attempt.model, mode: attempt.mode, ms, waitMs };
  if (error) {
    entry.status = error.upstream?.status ?? error.status;
    entry.error = error.message;
  }
  return entry;
}

/** A rate-limited key of a pool rests this long when its upstream did not say. */
const KEY_REST_MS = 10_000;

/** The header's common values, made once. */
const ATTEMPT_COUNTS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

function stoppedError(): GatewayError {
  return new GatewayError('upstream_error', 'The request was stopped before an upstream answered.', { status: 502 });
}

/**
 * The last failure of several attempts, for the client: its status and advice to retry, with a
 * message that lists what was tried (an upstream's own body would speak of its last try alone).
 */
function listTried(last: OpenedUpstream | GatewayError, attempts: readonly AttemptReport[]): OpenedUpstream | GatewayError {
  const error = GatewayError.is(last) ? last : last.kind === 'error' ? last.error : undefined;
  if (error === undefined) return last;
  const tried = attempts.map((entry) => `${entry.provider}/${entry.model} (${entry.status ?? 'no answer'})`).join(', ');
  const listed = new GatewayError(error.code, `${error.message.replace(/\.?$/, '.')} Tried ${attempts.length} attempts: ${tried}.`, {
    status: error.status,
    detailCode: error.detailCode,
    retryAfter: error.retryAfter,
    cause: error,
  });
  return GatewayError.is(last) ? listed : { kind: 'error', error: listed, status: (last as { status: number }).status };
}
