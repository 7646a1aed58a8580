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
}

export interface RecoverySink {
  save(generation: InterruptedGeneration): Promise<void>;
}
