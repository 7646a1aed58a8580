import { createRequire } from 'node:module';
import type { H3 } from 'h3';
import type { Gateway } from '../gateway/create-gateway.js';
import type { GenerationObserver, GenerationOutcome } from '../gateway/generation-outcome.js';
import { jsonResponse } from './to-http-response.js';

/** Where `gateway status` and the agent launchers ask whether a Switchyard gateway runs here. */
export const STATUS_PATH = '/switchyard/status';

/** The body of `GET /switchyard/status`. */
export interface StatusBody {
  /** Tells a Switchyard gateway from another server on the same port. */
  name: 'switchyard';
  version: string;
  uptime_s: number;
  in_flight: number;
  /** Generations whose client left and whose upstream is still read into a recovery. */
  draining: number;
  pid: number;
}

/** Counts the drains under way (an observer) and answers the status route. */
export class GatewayStatus implements GenerationObserver {
  readonly #startedAt: number;
  readonly #draining = new Set<GenerationOutcome>();

  constructor(now = Date.now()) {
    this.#startedAt = now;
  }

  draining(outcome: GenerationOutcome): void {
    this.#draining.add(outcome);
  }

  finished(outcome: GenerationOutcome): void {
    this.#draining.delete(outcome);
  }

  body(gateway: Gateway, now = Date.now()): StatusBody {
    return {
      name: 'switchyard',
      version: packageVersion(),
      uptime_s: Math.floor((now - this.#startedAt) / 1000),
      in_flight: gateway.inflightCount,
      draining: this.#draining.size,
      pid: process.pid,
    };
  }
}

/** Unauthenticated like /health: it tells counts and a version, nothing of any request or key. */
export function registerStatusRoute(app: H3, gateway: Gateway, status: GatewayStatus): void {
  app.get(STATUS_PATH, (event) => jsonResponse(event, status.body(gateway)));
}

let version: string | undefined;
function packageVersion(): string {
  // dist/server/status-route.js (or src/server/ under tests) → the package's own package.json.
  version ??= (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
  return version;
}
