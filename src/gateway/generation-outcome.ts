import type { GatewayError } from '../core/gateway-error.js';
import type { GenerateResponse } from '../core/generate-response.js';
import type { Protocol } from '../core/protocol.js';
import type { Usage } from '../core/usage.js';
import type { Warning } from '../core/warning.js';
import type { AttemptMode } from './plan-generation.js';
import type { InterruptedReason } from './recovery-sink.js';

/** One attempt of a request, as it went. */
export interface AttemptReport {
  provider: string;
  model: string;
  mode: AttemptMode;
  /** The upstream's status (its error's, when it answered with one); none when it never answered. */
  status?: number;
  /** Why the attempt failed, when it did (already cleared of keys). */
  error?: string;
  /** From the attempt's start to the upstream's response head (or its failure). */
  ms: number;
  /** How long the gateway waited before this attempt (a retry's `retry-after` or backoff). */
  waitMs?: number;
}

/**
 * What happened to one generation request, handed to the observers (the recoveries, the log line)
 * when it is over, and while a drain runs. The response and its usage are worked out only when an
 * observer asks: most requests end well and nobody reads them.
 */
export interface GenerationOutcome {
  readonly requestId: string;
  readonly user: string;
  /** The client's protocol. */
  readonly protocol: Protocol;
  /** The model as the client asked for it. */
  readonly model: string;
  readonly stream: boolean;
  /** The path the client called (`/v1/messages`, `/v1beta/models/x:streamGenerateContent`). */
  readonly endpoint: string;
  /** The client's `user-agent`, when it sent one. */
  readonly userAgent: string | undefined;
  readonly startedAt: number;
  /** The attempt that answered, or the last one tried; none when the request failed before any. */
  readonly upstream: { provider: string; model: string; mode: AttemptMode } | undefined;
  readonly attempts: readonly AttemptReport[];
  /** The HTTP status the client got. */
  readonly status: number;
  readonly durationMs: number;
  /** From the request's arrival to the first byte of the response's body (none when nothing was sent). */
  readonly ttfbMs: number | undefined;
  readonly warnings: readonly Warning[];
  /** Why it failed, if it did (the error the client got, or the failure that cut its stream). */
  readonly error: GatewayError | undefined;
  /** Set when the generation did not end normally towards its client: it is kept as a recovery. */
  readonly interrupted: InterruptedReason | undefined;
  /** The client's body, as received. */
  requestBodyText(): string;
  /**
   * The body sent upstream by the attempt that answered, after translation (the client's own for
   * a passthrough); none for the mock models or before any attempt.
   */
  upstreamRequestBodyText(): string | undefined;
  /** The response so far, as the client's protocol returns it without streaming. */
  responseBodyText(): string;
  /**
   * The bodies, for an observer that keeps them once the generation is over: the buffers are the
   * request path's, to be copied, not held (a slice of what a socket read holds the whole read).
   * A translated stream's response is rendered here, once; a passthrough stream's is handed over
   * as its events, undecoded, with what renders them.
   */
  bodies(): OutcomeBodies;
  /** The response so far, in core terms (what a retry that joins a drain is sent). */
  responseSoFar(): GenerateResponse;
  /** The recovery record the request was answered from, when a retry was (no upstream then). */
  readonly resumedFrom: string | undefined;
  usage(): Usage;
  /** Every key no text taken from this request may carry out (the config's, and the client's own). */
  secrets(): readonly string[];
}

export interface OutcomeBodies {
  /** The client's body, as received. */
  request: Buffer;
  /** The body sent upstream by the attempt that answered (`request` itself for a passthrough); none for the mock models. */
  upstreamRequest: Buffer | undefined;
  /**
   * The response as the client's protocol returns it without streaming: a JSON answer as the
   * client got it, or a stream's, rendered from what was collected; or, for a passthrough stream
   * never decoded, its events, which the observer copies and renders only if it is asked to.
   */
  response: string | Buffer | StreamEvents;
}

/**
 * A passthrough stream's events as the upstream sent them (whole events, those kept from the
 * client too), and what reads them into the response. Decoding them costs as much as translating
 * them: an observer that keeps them copies their bytes, and renders them only when asked.
 */
export interface StreamEvents {
  readonly events: readonly Buffer[];
  /** The response the events (all of them, as one text) make, as the client's protocol returns it without streaming. */
  render(events: string): string;
}

/**
 * Something that wants to know how generations went. Observers never slow or break a response:
 * the gateway calls them after the response is settled, and a failure of theirs is logged, never
 * passed on.
 */
export interface GenerationObserver {
  /**
   * The response is under way: its head is decided (a stream has begun, or a JSON answer is
   * ready). A stream's `responseBodyText()` grows from here on as the upstream sends.
   */
  started?(outcome: GenerationOutcome): void;
  /** The client went away and the upstream is still being drained: the outcome so far. */
  draining?(outcome: GenerationOutcome): void;
  /** The generation is over. */
  finished(outcome: GenerationOutcome): void | Promise<void>;
  /** A token-count request was answered (or refused). */
  counted?(outcome: TokenCountOutcome): void;
}

/** A token-count request, as it went: counted locally, nothing went upstream. */
export interface TokenCountOutcome {
  readonly requestId: string;
  readonly user: string;
  readonly protocol: Protocol;
  readonly endpoint: string;
  readonly model: string;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly status: number;
  /** The count the client got; none when it got an error. */
  readonly inputTokens: number | undefined;
  readonly userAgent: string | undefined;
}
