import type { Protocol } from '../core/protocol.js';
import type { InterruptedReason } from '../recoveries/recovery-record.js';

export type { InterruptedReason };

/** What the gateway knows of an interrupted generation; the recoveries store makes a record of it. */
export interface InterruptedGeneration {
  requestId: string;
  reason: InterruptedReason;
  user: string;
  model: string;
  protocol: Protocol;
  provider: string;
  /** The client's original body, as received (the record parses it again for its hash). */
  requestBodyText: string;
  /** The response as the client's protocol returns it without streaming (partial when cut). */
  responseBodyText: string;
  errorMessage?: string;
  /** The retry answered from this generation's record (resume on retry). */
  resumedBy?: string;
}

export interface RecoverySink {
  /** A finished interruption: one complete record (state "complete"). */
  save(generation: InterruptedGeneration): Promise<void>;
  /**
   * The client went away and the upstream is still being drained: the record exists from now
   * (state "draining", created_at = now), its response read from `snapshot()` (the response so
   * far, as the client's protocol returns it without streaming). The sink refreshes it from
   * `snapshot()` now and then (at most about once a second, only when it changed, on an unref'd
   * timer) until `complete`.
   */
  open(generation: InterruptedGeneration, snapshot: () => string): DrainingRecord;
}

export interface DrainingRecord {
  /** The drain ended (or was cut): the same record completed in place, state "complete". */
  complete(generation: InterruptedGeneration): Promise<void>;
}
