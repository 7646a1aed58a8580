import { GatewayError } from '../core/gateway-error.js';
import type { GenerateResponse } from '../core/generate-response.js';
import type { RecoveryRecord } from '../recoveries/recovery-record.js';
import type { RecoveryStore } from '../recoveries/recovery-store.js';
import type { ProtocolCodec } from '../protocols/protocol-codec.js';
import type { FollowedDrain } from './resume-stream.js';

/** How often a retry following another instance's drain reads its record. */
const REMOTE_DRAIN_POLL_MS = 250;
/**
 * How long it follows at most. An instance that stops mid-drain stops renewing the record's
 * lease, which ends the follow well before this (docs/team.md); a drain alive this long is left.
 */
const REMOTE_DRAIN_MAX_MS = 10 * 60 * 1000;

/**
 * A drain another instance runs on a shared store (docs/team.md), as a retry here follows it:
 * through its record, which that instance refreshes about once a second. Each read that finds
 * the response grown decodes it (the record holds it in the retry's protocol, as a
 * non-stream answer) into the snapshot the retry's stream sends the rest of. It ends when the
 * record is complete: whole when the drain read its upstream to the end, failed otherwise (the
 * upstream failed, or the instance stopped and its lease ran out).
 */
export class RemoteDrain implements FollowedDrain {
  readonly ended: Promise<GatewayError | undefined>;
  #snapshot: GenerateResponse;
  #body: string;
  readonly #store: RecoveryStore;
  readonly #codec: ProtocolCodec;
  readonly #requestId: string;
  readonly #user: string;

  /** `first`: the record as last read, still draining, and its response decoded. */
  constructor(options: { store: RecoveryStore; codec: ProtocolCodec; first: RecoveryRecord; response: GenerateResponse }) {
    this.#store = options.store;
    this.#codec = options.codec;
    this.#requestId = options.first.request_id;
    this.#user = options.first.user;
    this.#body = options.first.response.body_raw;
    this.#snapshot = options.response;
    this.ended = this.#follow();
  }

  snapshot(): GenerateResponse {
    return this.#snapshot;
  }

  /** The response as the record last held it, in the retry's protocol: whole once `ended` is. */
  responseBodyText(): string {
    return this.#body;
  }

  async #follow(): Promise<GatewayError | undefined> {
    const started = Date.now();
    while (Date.now() - started < REMOTE_DRAIN_MAX_MS) {
      await new Promise((resolve) => setTimeout(resolve, REMOTE_DRAIN_POLL_MS).unref());
      let record: RecoveryRecord | undefined;
      try {
        record = await this.#store.get(this.#requestId, this.#user);
      } catch {
        // The database away a moment: read again at the next turn.
        continue;
      }
      if (record === undefined) return new GatewayError('upstream_error', 'The recovery record this retry followed was deleted before its end.');
      this.#take(record);
      if (record.state === 'draining') continue;
      if (record.interrupted_reason === 'client_disconnected' && record.error_message === undefined) return undefined;
      return new GatewayError('upstream_error', record.error_message ?? 'The generation this retry followed did not reach its end.');
    }
    return new GatewayError('upstream_error', 'The generation this retry followed on another gateway instance did not end in time.');
  }

  /** The record's response, decoded when it grew; one that does not decode leaves the last snapshot. */
  #take(record: RecoveryRecord): void {
    const body = record.response.body_raw;
    if (body === this.#body) return;
    try {
      this.#snapshot = this.#codec.decodeResponse(JSON.parse(body));
      this.#body = body;
    } catch {
      // Read halfway through a write it cannot be; a body that is not the protocol's is skipped.
    }
  }
}
