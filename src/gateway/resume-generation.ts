import type { GatewayError } from '../core/gateway-error.js';
import type { GenerateResponse } from '../core/generate-response.js';
import { hashRequestBodyText } from '../recoveries/hash-request-body.js';
import type { RecoveryRecord } from '../recoveries/recovery-record.js';
import type { RecoveryStore } from '../recoveries/recovery-store.js';
import { ResumableRecords, type ResumableRecord } from '../recoveries/resumable-records.js';
import type { ProtocolCodec } from '../protocols/protocol-codec.js';
import type { GenerationOutcome } from './generation-outcome.js';
import { RemoteDrain } from './remote-drain.js';
import type { FollowedDrain, ResumeSource } from './resume-stream.js';

/** A drain a retry may join: the generation whose client left, until its upstream is done. */
export class LiveDrain implements FollowedDrain {
  readonly ended: Promise<GatewayError | undefined>;
  #end!: (error: GatewayError | undefined) => void;
  #outcome: GenerationOutcome;

  constructor(outcome: GenerationOutcome) {
    this.#outcome = outcome;
    this.ended = new Promise((resolve) => (this.#end = resolve));
  }

  snapshot(): GenerateResponse {
    return this.#outcome.responseSoFar();
  }

  responseBodyText(): string {
    return this.#outcome.responseBodyText();
  }

  end(error: GatewayError | undefined): void {
    this.#end(error);
  }
}

/** A retry answered from a drain still running: followed as a stream, or its whole answer once it ends well. */
async function answerFromDrain(drain: LiveDrain | RemoteDrain, stream: boolean): Promise<ResumedAnswer | undefined> {
  if (stream) return { kind: 'stream', source: { kind: 'live', drain } };
  const failure = await drain.ended;
  if (failure) return undefined;
  return { kind: 'json', body: drain.responseBodyText() };
}

/** Whether a complete record holds a whole answer no retry took yet. */
function answersRetry(stored: RecoveryRecord): boolean {
  return stored.state === 'complete' && stored.interrupted_reason === 'client_disconnected' && stored.error_message === undefined && stored.resumed_by === undefined;
}

/** How a retry is answered from a record: its JSON as the record holds it, or a stream. */
export type ResumedAnswer = { kind: 'json'; body: string } | { kind: 'stream'; source: ResumeSource };

/** A record that may answer a retry. */
export type ResumeRecord = ResumableRecord<LiveDrain>;
type Record = ResumeRecord;

/**
 * Resume on retry (docs/recoveries.md): the records that may answer a retry, kept in memory by
 * user, and how a retry is answered from one. Fed by the recovery observer (a drain starts, a
 * drain ends) and, when the server starts, from the store.
 */
export class Resumer {
  readonly #records = new ResumableRecords<LiveDrain>();
  readonly #store: RecoveryStore;
  readonly #log: (message: string) => void;

  constructor(store: RecoveryStore, log: (message: string) => void) {
    this.#store = store;
    this.#log = log;
  }

  /**
   * Set while `load` reads the store: a request that arrives meanwhile waits for it (a client
   * retrying as soon as the server is back), one that arrives later pays nothing.
   */
  loading: Promise<void> | undefined;

  /**
   * The complete, unused records of the window, from the store (a server restarted); on a store
   * shared with other instances, then those they complete, as they do (docs/team.md).
   */
  load(now: number, windowMs: number): Promise<void> {
    const loading = this.#records
      .load(this.#store, now, windowMs)
      .catch((error: unknown) => this.#log(`could not read the recoveries store for resume: ${String(error)}`))
      .then(() => this.#store.watchResumable?.((summaries) => this.#records.addSummaries(summaries, Date.now(), windowMs, { draining: true })))
      .finally(() => {
        if (this.loading === loading) this.loading = undefined;
      });
    this.loading = loading;
    return loading;
  }

  /** A drain begins (its record exists from now): a retry may join it. */
  draining(outcome: GenerationOutcome, now: number): Record | undefined {
    let hash: string;
    try {
      hash = hashRequestBodyText(outcome.requestBodyText());
    } catch {
      return undefined;
    }
    const record: Record = {
      requestId: outcome.requestId,
      user: outcome.user,
      model: outcome.model,
      protocol: outcome.protocol,
      hash,
      interruptedAt: now,
      live: new LiveDrain(outcome),
      settled: Promise.resolve(),
      usedBy: undefined,
    };
    this.#records.add(record);
    return record;
  }

  /**
   * The drain is over; `settled` is the write of its final record. Only a drain that read its
   * upstream to the end answers a retry; a retry already following it gets the end now.
   */
  drained(record: Record, outcome: GenerationOutcome, settled: Promise<void>): void {
    const live = record.live;
    record.live = undefined;
    record.settled = settled;
    const whole = outcome.error === undefined && outcome.interrupted === 'client_disconnected';
    if (!whole) this.#records.remove(record);
    live?.end(outcome.error);
  }

  /**
   * The record that answers this request, taken for it at once (a third identical request goes
   * upstream); none for nearly every request, without hashing its body.
   */
  take(query: { requestId: string; user: string; model: string; protocol: string; body: unknown; now: number; windowMs: number }): Record | undefined {
    const record = this.#records.find(query);
    if (record) record.usedBy = query.requestId;
    return record;
  }

  #read(record: Record): Promise<RecoveryRecord | undefined> {
    return this.#store.get(record.requestId, record.user).catch(() => undefined);
  }

  /** Takes the record in the store for this retry: of two retries on two instances, one gets it. */
  async #take(record: Record): Promise<boolean> {
    const taken = await this.#store.markResumed(record.requestId, record.usedBy!, record.user).catch((error: unknown) => {
      this.#log(`could not note the resume of ${record.requestId}: ${String(error)}`);
      return false;
    });
    if (!taken) this.#records.remove(record);
    return taken;
  }

  /**
   * The answer a record gives a retry in `codec`'s protocol (the record's own), or none when it
   * turns out it has no whole answer to give (deleted meanwhile, or its drain failed): the retry
   * then goes upstream as usual.
   */
  async answer(record: Record, codec: ProtocolCodec, stream: boolean): Promise<ResumedAnswer | undefined> {
    // Its final record is written with `resumed_by` (recovery-observer.ts).
    if (record.live) return answerFromDrain(record.live, stream);
    await record.settled;
    const stored = await this.#read(record);
    if (!stored) {
      this.#records.remove(record);
      return undefined;
    }
    const response = this.#decode(record, stored, codec);
    if (!response) return undefined;
    // A drain another instance runs (a shared store): taken here at once, then followed through
    // its record as that instance refreshes it (docs/team.md).
    if (stored.state === 'draining') {
      if (stored.interrupted_reason !== 'client_disconnected' || stored.resumed_by !== undefined) {
        this.#records.remove(record);
        return undefined;
      }
      if (!(await this.#take(record))) return undefined;
      return answerFromDrain(new RemoteDrain({ store: this.#store, codec, first: stored, response }), stream);
    }
    if (!answersRetry(stored)) {
      this.#records.remove(record);
      return undefined;
    }
    if (!(await this.#take(record))) return undefined;
    if (!stream) return { kind: 'json', body: stored.response.body_raw };
    return { kind: 'stream', source: { kind: 'complete', response } };
  }

  /** The record's response in `codec`'s protocol; none (and the record forgotten) when it does not decode. */
  #decode(record: Record, stored: RecoveryRecord, codec: ProtocolCodec): GenerateResponse | undefined {
    try {
      return codec.decodeResponse(JSON.parse(stored.response.body_raw));
    } catch {
      this.#records.remove(record);
      return undefined;
    }
  }
}
