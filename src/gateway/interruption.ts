import type { DisconnectPolicy } from '../config/config-types.js';
import { EventEmitter } from 'node:events';
import { GatewayError } from '../core/gateway-error.js';
import type { ClientConnection } from './client-connection.js';
import type { InflightRegistry } from './inflight.js';
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

export interface Interruption {
  readonly signal: UpstreamStop;
  /** The recovery reason for how the generation ended (`error`: the upstream's failure, if any). */
  reasonFor(error: GatewayError | undefined): InterruptedReason | undefined;
  /** The error to report when a shutdown stopped the generation. */
  shutdownError(): GatewayError | undefined;
  /** The generation has ended and its record is written: release timers and the registry. */
  end(): void;
}

export function createInterruption(options: {
  client: ClientConnection;
  policy: DisconnectPolicy;
  drainTimeoutMs: number;
  inflight: InflightRegistry;
}): Interruption {
  let stopCause: 'client' | 'shutdown' | undefined;
  const upstreamAbort = new UpstreamStop();
  const stop = (cause: 'client' | 'shutdown') => {
    stopCause ??= cause;
    upstreamAbort.abort();
  };
  let drainTimer: NodeJS.Timeout | undefined;
  const onClientGone = () => {
    if (options.policy === 'cancel') return stop('client');
    drainTimer = setTimeout(() => stop('client'), options.drainTimeoutMs);
    drainTimer.unref();
  };
  const stopListening = options.client.onGone(onClientGone);

  let settle!: () => void;
  const done = new Promise<void>((resolve) => (settle = resolve));
  const unregister = options.inflight.add({ stop: () => stop('shutdown'), done });

  return {
    signal: upstreamAbort,
    reasonFor(error) {
      if (stopCause === 'shutdown') return 'server_shutdown';
      if (stopCause === 'client' || options.client.gone) return 'client_disconnected';
      if (!error) return undefined;
      return error.code === 'timeout' ? 'upstream_timeout' : 'upstream_error';
    },
    shutdownError: () =>
      stopCause === 'shutdown'
        ? new GatewayError('overloaded', 'The gateway is shutting down; the generation was stopped and kept as a recovery record.', { status: 503 })
        : undefined,
    end() {
      clearTimeout(drainTimer);
      stopListening();
      unregister();
      settle();
    },
  };
}
