import type { DisconnectPolicy } from '../config/config-types.js';
import { EventEmitter } from 'node:events';
import { GatewayError } from '../core/gateway-error.js';
import type { ClientConnection, ClientGoneListener } from './client-connection.js';
import type { InflightEntry, InflightRegistry } from './inflight.js';
import type { InterruptedReason } from './recovery-sink.js';

/**
 * Who may stop a generation's upstream, and why it ended early. The client going away stops it
 * at once (`cancel`) or after the drain timeout (`drain`); a shutdown stops it after the grace
 * period. `signal` aborts the upstream call.
 */
/**
 * Stops the upstream call. An EventEmitter with `aborted`, which undici takes as a signal: an
 * AbortController per request measured ~2 % of a request's CPU. The mock's timers need a real
 * AbortSignal; `toAbortSignal` makes one on demand.
 */
export class UpstreamStop extends EventEmitter {
  aborted = false;
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
  toAbortSignal(): AbortSignal {
    const controller = new AbortController();
    if (this.aborted) controller.abort();
    else this.once('abort', () => controller.abort());
    return controller.signal;
  }
}

export interface InterruptionOptions {
  client: ClientConnection;
  policy: DisconnectPolicy;
  drainTimeoutMs: number;
  inflight: InflightRegistry;
}

export function createInterruption(options: InterruptionOptions): Interruption {
  return new Interruption(options);
}

/**
 * One generation's interruption: registered in flight (it is its own registry entry) until `end`.
 * A class, not a factory of closures: it lives as long as the generation (CONTRIBUTING.md, "Code").
 */
export class Interruption implements InflightEntry, ClientGoneListener {
  /** Aborts the upstream call. */
  readonly signal = new UpstreamStop();
  #options: InterruptionOptions;
  #ended = false;
  /** Made only when a shutdown waits for the generation. */
  #done: Promise<void> | undefined;
  #settle: (() => void) | undefined;
  #stopCause: 'client' | 'shutdown' | undefined;
  #drainTimer: NodeJS.Timeout | undefined;
  #draining = false;
  #onDraining: (() => void) | undefined;

  constructor(options: InterruptionOptions) {
    this.#options = options;
    options.client.onGone(this);
    options.inflight.add(this);
  }

  /** Settles once the generation has ended and its record is written. */
  get done(): Promise<void> {
    this.#done ??= this.#ended ? Promise.resolve() : new Promise<void>((resolve) => (this.#settle = resolve));
    return this.#done;
  }

  /** The client went away: stop the upstream at once (`cancel`) or after the drain timeout (`drain`). */
  clientGone(): void {
    if (this.#options.policy === 'cancel') return this.#stop('client');
    this.#drainTimer = setTimeout(() => this.#stop('client'), this.#options.drainTimeoutMs);
    this.#drainTimer.unref();
    this.#draining = true;
    this.#onDraining?.();
  }

  /**
   * Calls `listener` once when the client goes under `drain` (at once if it already has): the
   * moment the recovery record of a drain starts to exist.
   */
  whenDraining(listener: () => void): void {
    if (this.#draining) listener();
    else this.#onDraining = listener;
  }

  /** A shutdown stops the generation now; it records itself as interrupted by the shutdown. */
  stop(): void {
    this.#stop('shutdown');
  }

  /** The recovery reason for how the generation ended (`error`: the upstream's failure, if any). */
  reasonFor(error: GatewayError | undefined): InterruptedReason | undefined {
    if (this.#stopCause === 'shutdown') return 'server_shutdown';
    if (this.#stopCause === 'client' || this.#options.client.gone) return 'client_disconnected';
    if (!error) return undefined;
    return error.code === 'timeout' ? 'upstream_timeout' : 'upstream_error';
  }

  /** The error to report when a shutdown stopped the generation. */
  shutdownError(): GatewayError | undefined {
    return this.#stopCause === 'shutdown'
      ? new GatewayError('overloaded', 'The gateway is shutting down; the generation was stopped and kept as a recovery record.', { status: 503 })
      : undefined;
  }

  /** The generation has ended and its record is written: release timers and the registry. */
  end(): void {
    clearTimeout(this.#drainTimer);
    this.#onDraining = undefined;
    this.#options.client.offGone(this);
    this.#options.inflight.delete(this);
    this.#ended = true;
    this.#settle?.();
  }

  #stop(cause: 'client' | 'shutdown'): void {
    this.#stopCause ??= cause;
    this.signal.abort();
  }
}
