import type { Usage } from '../../core/usage.js';
import type { Warning } from '../../core/warning.js';
import type { AttemptReport, GenerationOutcome, StreamEvents } from '../../gateway/generation-outcome.js';
import type { BodyArena } from './body-arena.js';
import type { InspectedRequest } from './inspector-observer.js';

const NO_WARNINGS: readonly Warning[] = Object.freeze([]);

/** What the page shows for a body the inspector no longer holds. */
export const BODY_NOT_KEPT = '[not kept: the inspector holds at most inspector.bodyMaxMb of bodies in memory]';

/**
 * A finished request as the inspector keeps it (the last 200 by default): strings and numbers,
 * its bodies copied into the inspector's `BodyArena` (a passthrough stream's response as its
 * events, rendered when the page asks), and the rest rebuilt when the page asks.
 * What it holds is what a young-generation collection has to copy, for every request, until the
 * request leaves the inspector: holding the outcome's own objects (its usage with the upstream's
 * usage object, its attempts, the buffers it read) cost the passthrough path about a fifth of
 * its CPU per request in a paired run; only the rare parts (several attempts, warnings, an
 * error) are kept as objects.
 */
export class FinishedRequest implements InspectedRequest {
  readonly requestId: string;
  readonly user: string;
  readonly protocol: GenerationOutcome['protocol'];
  readonly model: string;
  readonly endpoint: string;
  readonly stream: boolean;
  readonly startedAt: number;
  readonly status: number;
  readonly durationMs: number;
  readonly ttfbMs: number | undefined;
  readonly warnings: readonly Warning[];
  readonly interrupted: GenerationOutcome['interrupted'];
  readonly resumedFrom: string | undefined;
  readonly error: InspectedRequest['error'];
  readonly #provider: string | undefined;
  readonly #upstreamModel: string;
  readonly #mode: NonNullable<GenerationOutcome['upstream']>['mode'];
  /** The attempts, when they say more than the upstream that answered and its time. */
  readonly #attempts: readonly AttemptReport[] | undefined;
  readonly #attemptMs: number;
  readonly #waitMs: number | undefined;
  readonly #arena: BodyArena;
  /** Where the bodies lie in the arena; -1 for an upstream request when there was none. */
  readonly #requestStart: number;
  readonly #requestEnd: number;
  readonly #upstreamStart: number;
  readonly #upstreamEnd: number;
  readonly #responseStart: number;
  readonly #responseEnd: number;
  /** A passthrough stream's response, rendered from its events (in the arena) when the page opens it. */
  readonly #render: StreamEvents['render'] | undefined;
  readonly #inputTotal: number | undefined;
  readonly #noCache: number | undefined;
  readonly #cacheRead: number | undefined;
  readonly #cacheWrite: number | undefined;
  readonly #outputTotal: number | undefined;
  readonly #text: number | undefined;
  readonly #reasoning: number | undefined;
  /** The config's and the client's keys: one array shared by the requests of one key and config. */
  readonly #secrets: readonly string[];

  constructor(outcome: GenerationOutcome, arena: BodyArena) {
    this.requestId = outcome.requestId;
    this.user = outcome.user;
    this.protocol = outcome.protocol;
    this.model = outcome.model;
    this.endpoint = outcome.endpoint;
    this.stream = outcome.stream;
    this.startedAt = outcome.startedAt;
    this.status = outcome.status;
    this.durationMs = outcome.durationMs;
    this.ttfbMs = outcome.ttfbMs;
    this.warnings = outcome.warnings.length === 0 ? NO_WARNINGS : outcome.warnings;
    this.interrupted = outcome.interrupted;
    this.resumedFrom = outcome.resumedFrom;
    const error = outcome.error;
    this.error = error === undefined ? undefined : { code: error.code, status: error.status, message: error.message };
    const upstream = outcome.upstream;
    this.#provider = upstream?.provider;
    this.#upstreamModel = upstream?.model ?? '';
    this.#mode = upstream?.mode ?? 'passthrough';
    const attempts = outcome.attempts;
    const only = attempts.length === 1 ? attempts[0]! : undefined;
    const plain = only !== undefined && upstream !== undefined && only.error === undefined && only.status === undefined && only.provider === upstream.provider && only.model === upstream.model;
    this.#attempts = plain ? undefined : attempts;
    this.#attemptMs = plain ? only.ms : 0;
    this.#waitMs = plain ? only.waitMs : undefined;
    this.#arena = arena;
    const bodies = outcome.bodies();
    const ownUpstream = bodies.upstreamRequest !== undefined && bodies.upstreamRequest !== bodies.request;
    const response = bodies.response;
    const events = typeof response === 'string' || Buffer.isBuffer(response) ? undefined : response;
    this.#render = events?.render;
    // [request, upstream request when its own, the response or its events]: one write, one piece of the arena.
    const parts: (Buffer | string)[] = [bodies.request];
    if (ownUpstream) parts.push(bodies.upstreamRequest!);
    const responseAt = parts.length;
    if (events === undefined) parts.push(response as string | Buffer);
    else for (const event of events.events) parts.push(event);
    // Larger than the arena may grow: its texts say they were not kept.
    const at = arena.write(parts) ?? parts.map(() => -2).concat(-2);
    this.#requestStart = at[0]!;
    this.#requestEnd = at[1]!;
    this.#upstreamStart = bodies.upstreamRequest === undefined ? -1 : ownUpstream ? at[1]! : at[0]!;
    this.#upstreamEnd = bodies.upstreamRequest === undefined ? -1 : ownUpstream ? at[2]! : at[1]!;
    this.#responseStart = at[responseAt]!;
    this.#responseEnd = at[parts.length]!;
    const usage = outcome.usage();
    this.#inputTotal = usage.input.total;
    this.#noCache = usage.input.noCache;
    this.#cacheRead = usage.input.cacheRead;
    this.#cacheWrite = usage.input.cacheWrite;
    this.#outputTotal = usage.output.total;
    this.#text = usage.output.text;
    this.#reasoning = usage.output.reasoning;
    this.#secrets = outcome.secrets();
  }

  get upstream(): GenerationOutcome['upstream'] {
    return this.#provider === undefined ? undefined : { provider: this.#provider, model: this.#upstreamModel, mode: this.#mode };
  }

  get attempts(): readonly AttemptReport[] {
    if (this.#attempts !== undefined) return this.#attempts;
    return [{ provider: this.#provider!, model: this.#upstreamModel, mode: this.#mode, ms: this.#attemptMs, waitMs: this.#waitMs }];
  }

  /** Where its bodies start in the arena: the inspector keeps the bytes of the requests it holds. */
  get bodiesStart(): number {
    return this.#requestStart;
  }

  requestBodyText(): string {
    return this.#bodyText(this.#requestStart, this.#requestEnd);
  }

  upstreamRequestBodyText(): string | undefined {
    return this.#upstreamStart === -1 ? undefined : this.#bodyText(this.#upstreamStart, this.#upstreamEnd);
  }

  responseBodyText(): string {
    const text = this.#arena.read(this.#responseStart, this.#responseEnd);
    if (text === undefined) return BODY_NOT_KEPT;
    if (this.#render === undefined) return text;
    try {
      return this.#render(text);
    } catch {
      // Events its decoder refuses: the page shows them as they came.
      return text;
    }
  }

  #bodyText(start: number, end: number): string {
    return (start >= 0 && this.#arena.read(start, end)) || (start === end && start >= 0 ? '' : BODY_NOT_KEPT);
  }

  /** The counts (the upstream's own usage object is not kept). */
  usage(): Usage {
    return {
      input: { total: this.#inputTotal, noCache: this.#noCache, cacheRead: this.#cacheRead, cacheWrite: this.#cacheWrite },
      output: { total: this.#outputTotal, text: this.#text, reasoning: this.#reasoning },
    };
  }

  secrets(): readonly string[] {
    return this.#secrets;
  }
}
