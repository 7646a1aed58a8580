import type { Usage } from '../../core/usage.js';
import type { Warning } from '../../core/warning.js';
import type { AttemptReport, GenerationOutcome, StreamEvents } from '../../gateway/generation-outcome.js';
import type { BodyArena } from './body-arena.js';
import type { InspectedRequest } from './inspector-observer.js';

const NO_WARNINGS: readonly Warning[] = Object.freeze([]);
const NO_SECRETS: readonly string[] = Object.freeze([]);

/** What the page shows for a body the inspector no longer holds. */
export const BODY_NOT_KEPT = '[not kept: the inspector holds at most inspector.bodyMaxMb of bodies in memory]';

/** A finished request's figures: its columns in `FinishedRequests`' table of numbers (NaN for none). */
const FIGURE = {
  startedAt: 0,
  status: 1,
  durationMs: 2,
  ttfbMs: 3,
  attemptMs: 4,
  waitMs: 5,
  inputTotal: 6,
  noCache: 7,
  cacheRead: 8,
  cacheWrite: 9,
  outputTotal: 10,
  text: 11,
  reasoning: 12,
  /** Where its bodies lie in the arena; -1 for an upstream request when there was none, -2 when they were too large to keep. */
  requestStart: 13,
  requestEnd: 14,
  upstreamStart: 15,
  upstreamEnd: 16,
  responseStart: 17,
  responseEnd: 18,
} as const;
const FIGURES = 19;

type Mode = NonNullable<GenerationOutcome['upstream']>['mode'];

/**
 * The finished requests the inspector lists, by slot of its ring, kept column by column: figures
 * in one table of numbers, bodies in the `BodyArena`, strings and the rare objects (several
 * attempts, warnings, an error, what renders a passthrough stream's events) in one array each.
 * A request leaves nothing behind but the values themselves: an object per request, alive until
 * 200 more requests have come, is copied by the young-generation collections, promoted, and then
 * swept by full collections (CONTRIBUTING.md, "Code": what outlives a request). The page gets a
 * view of a slot, made when it asks.
 */
export class FinishedRequests {
  readonly #arena: BodyArena;
  readonly #figures: Float64Array;
  readonly #requestId: string[];
  readonly #user: string[];
  readonly #protocol: GenerationOutcome['protocol'][];
  readonly #model: string[];
  readonly #endpoint: string[];
  readonly #stream: boolean[];
  readonly #provider: (string | undefined)[];
  readonly #upstreamModel: string[];
  readonly #mode: Mode[];
  readonly #interrupted: GenerationOutcome['interrupted'][];
  readonly #resumedFrom: (string | undefined)[];
  /** The attempts, when they say more than the upstream that answered and its time. */
  readonly #attempts: (readonly AttemptReport[] | undefined)[];
  readonly #warnings: (readonly Warning[])[];
  readonly #error: InspectedRequest['error'][];
  /** A passthrough stream's response, rendered from its events (in the arena) when the page opens it. */
  readonly #render: (StreamEvents['render'] | undefined)[];
  /** The config's and the client's keys: one array shared by the requests of one key and config. */
  readonly #secrets: (readonly string[])[];

  constructor(slots: number, arena: BodyArena) {
    this.#arena = arena;
    this.#figures = new Float64Array(slots * FIGURES);
    const column = <T>(value: T): T[] => new Array<T>(slots).fill(value);
    this.#requestId = column('');
    this.#user = column('');
    this.#protocol = column<GenerationOutcome['protocol']>('openai-chat');
    this.#model = column('');
    this.#endpoint = column('');
    this.#stream = column(false);
    this.#provider = column<string | undefined>(undefined);
    this.#upstreamModel = column('');
    this.#mode = column<Mode>('passthrough');
    this.#interrupted = column<GenerationOutcome['interrupted']>(undefined);
    this.#resumedFrom = column<string | undefined>(undefined);
    this.#attempts = column<readonly AttemptReport[] | undefined>(undefined);
    this.#warnings = column(NO_WARNINGS);
    this.#error = column<InspectedRequest['error']>(undefined);
    this.#render = column<StreamEvents['render'] | undefined>(undefined);
    this.#secrets = column(NO_SECRETS);
  }

  /** Keeps `outcome`, finished, in `slot`: its bodies copied into the arena, its figures and strings into the columns. */
  write(slot: number, outcome: GenerationOutcome): void {
    this.#requestId[slot] = outcome.requestId;
    this.#user[slot] = outcome.user;
    this.#protocol[slot] = outcome.protocol;
    this.#model[slot] = outcome.model;
    this.#endpoint[slot] = outcome.endpoint;
    this.#stream[slot] = outcome.stream;
    this.#interrupted[slot] = outcome.interrupted;
    this.#resumedFrom[slot] = outcome.resumedFrom;
    this.#warnings[slot] = outcome.warnings.length === 0 ? NO_WARNINGS : outcome.warnings;
    const error = outcome.error;
    this.#error[slot] = error === undefined ? undefined : { code: error.code, status: error.status, message: error.message };
    this.#secrets[slot] = outcome.secrets();
    const upstream = outcome.upstream;
    this.#provider[slot] = upstream?.provider;
    this.#upstreamModel[slot] = upstream?.model ?? '';
    this.#mode[slot] = upstream?.mode ?? 'passthrough';
    const at = slot * FIGURES;
    const figures = this.#figures;
    figures[at + FIGURE.startedAt] = outcome.startedAt;
    figures[at + FIGURE.status] = outcome.status;
    figures[at + FIGURE.durationMs] = outcome.durationMs;
    figures[at + FIGURE.ttfbMs] = outcome.ttfbMs ?? NaN;
    const attempts = outcome.attempts;
    const only = attempts.length === 1 ? attempts[0]! : undefined;
    const plain = only !== undefined && upstream !== undefined && only.error === undefined && only.status === undefined && only.provider === upstream.provider && only.model === upstream.model;
    this.#attempts[slot] = plain ? undefined : attempts;
    figures[at + FIGURE.attemptMs] = plain ? only.ms : 0;
    figures[at + FIGURE.waitMs] = plain ? (only.waitMs ?? NaN) : NaN;
    const usage = outcome.usage();
    figures[at + FIGURE.inputTotal] = usage.input.total ?? NaN;
    figures[at + FIGURE.noCache] = usage.input.noCache ?? NaN;
    figures[at + FIGURE.cacheRead] = usage.input.cacheRead ?? NaN;
    figures[at + FIGURE.cacheWrite] = usage.input.cacheWrite ?? NaN;
    figures[at + FIGURE.outputTotal] = usage.output.total ?? NaN;
    figures[at + FIGURE.text] = usage.output.text ?? NaN;
    figures[at + FIGURE.reasoning] = usage.output.reasoning ?? NaN;
    this.#writeBodies(slot, outcome);
  }

  #writeBodies(slot: number, outcome: GenerationOutcome): void {
    const bodies = outcome.bodies();
    const ownUpstream = bodies.upstreamRequest !== undefined && bodies.upstreamRequest !== bodies.request;
    const response = bodies.response;
    const events = typeof response === 'string' || Buffer.isBuffer(response) ? undefined : response;
    this.#render[slot] = events?.render;
    // [request, upstream request when its own, the response or its events]: one write, one piece of the arena.
    const parts: (Buffer | string)[] = [bodies.request];
    if (ownUpstream) parts.push(bodies.upstreamRequest!);
    const responseAt = parts.length;
    if (events === undefined) parts.push(response as string | Buffer);
    else for (const event of events.events) parts.push(event);
    // Larger than the arena may grow: its texts say they were not kept.
    const offsets = this.#arena.write(parts) ?? parts.map(() => -2).concat(-2);
    const at = slot * FIGURES;
    const figures = this.#figures;
    figures[at + FIGURE.requestStart] = offsets[0]!;
    figures[at + FIGURE.requestEnd] = offsets[1]!;
    figures[at + FIGURE.upstreamStart] = bodies.upstreamRequest === undefined ? -1 : ownUpstream ? offsets[1]! : offsets[0]!;
    figures[at + FIGURE.upstreamEnd] = bodies.upstreamRequest === undefined ? -1 : ownUpstream ? offsets[2]! : offsets[1]!;
    figures[at + FIGURE.responseStart] = offsets[responseAt]!;
    figures[at + FIGURE.responseEnd] = offsets[parts.length]!;
  }

  requestId(slot: number): string {
    return this.#requestId[slot]!;
  }

  user(slot: number): string {
    return this.#user[slot]!;
  }

  /** Where the bodies of the request in `slot` start in the arena (negative when none were kept). */
  bodiesStart(slot: number): number {
    return this.#figures[slot * FIGURES + FIGURE.requestStart]!;
  }

  /** The request in `slot`, as the page reads it: its values copied, so that it stays whole when the slot is taken. */
  view(slot: number): InspectedRequest {
    const at = slot * FIGURES;
    const figures = this.#figures;
    const figure = (index: number) => optional(figures[at + index]!);
    const provider = this.#provider[slot];
    const upstream = provider === undefined ? undefined : { provider, model: this.#upstreamModel[slot]!, mode: this.#mode[slot]! };
    const usage: Usage = {
      input: { total: figure(FIGURE.inputTotal), noCache: figure(FIGURE.noCache), cacheRead: figure(FIGURE.cacheRead), cacheWrite: figure(FIGURE.cacheWrite) },
      output: { total: figure(FIGURE.outputTotal), text: figure(FIGURE.text), reasoning: figure(FIGURE.reasoning) },
    };
    const secrets = this.#secrets[slot]!;
    const render = this.#render[slot];
    // Read when the page asks: the bytes may be gone by then, and the text says so.
    const arena = this.#arena;
    const places = figures.slice(at + FIGURE.requestStart, at + FIGURE.responseEnd + 1);
    const text = (startFigure: number, endFigure: number): string | undefined => {
      const start = places[startFigure - FIGURE.requestStart]!;
      const end = places[endFigure - FIGURE.requestStart]!;
      return start < 0 ? undefined : arena.read(start, end);
    };
    return {
      requestId: this.#requestId[slot]!,
      user: this.#user[slot]!,
      protocol: this.#protocol[slot]!,
      model: this.#model[slot]!,
      endpoint: this.#endpoint[slot]!,
      stream: this.#stream[slot]!,
      startedAt: figures[at + FIGURE.startedAt]!,
      status: figures[at + FIGURE.status]!,
      durationMs: figures[at + FIGURE.durationMs]!,
      ttfbMs: figure(FIGURE.ttfbMs),
      warnings: this.#warnings[slot]!,
      interrupted: this.#interrupted[slot],
      resumedFrom: this.#resumedFrom[slot],
      error: this.#error[slot],
      upstream,
      // Not kept when plain: the one attempt of the upstream that answered, and its time.
      attempts: this.#attempts[slot] ?? [{ provider: provider!, model: upstream!.model, mode: upstream!.mode, ms: figures[at + FIGURE.attemptMs]!, waitMs: figure(FIGURE.waitMs) }],
      usage: () => usage,
      secrets: () => secrets,
      requestBodyText: () => text(FIGURE.requestStart, FIGURE.requestEnd) ?? BODY_NOT_KEPT,
      upstreamRequestBodyText: () => (places[FIGURE.upstreamStart - FIGURE.requestStart] === -1 ? undefined : (text(FIGURE.upstreamStart, FIGURE.upstreamEnd) ?? BODY_NOT_KEPT)),
      responseBodyText: () => {
        const events = text(FIGURE.responseStart, FIGURE.responseEnd);
        if (events === undefined) return BODY_NOT_KEPT;
        if (render === undefined) return events;
        try {
          return render(events);
        } catch {
          // Events its decoder refuses: the page shows them as they came.
          return events;
        }
      },
    };
  }
}

function optional(value: number): number | undefined {
  return Number.isNaN(value) ? undefined : value;
}
