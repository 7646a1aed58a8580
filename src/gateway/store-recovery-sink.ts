import { createRecoveryRecord, type RecoveryRecord } from '../recoveries/recovery-record.js';
import type { RecoveryStore } from '../recoveries/recovery-store.js';
import type { DrainingRecord, InterruptedGeneration, RecoverySink } from './recovery-sink.js';

/** How often at most a draining record is rewritten with what has arrived since. */
export const DRAINING_REFRESH_MS = 1000;

/**
 * Interrupted generations become records in the recoveries store. A drain's record is written
 * when the client leaves and rewritten as the response grows; its writes are logged when they
 * fail, never thrown at the gateway, and never wait for anything the response waits for.
 */
export function createStoreRecoverySink(
  store: RecoveryStore,
  now: () => number = Date.now,
  log: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
): RecoverySink {
  return {
    save: (generation) => store.add(toRecord(generation, 'complete', Math.floor(now() / 1000))),
    open: (generation, snapshot) => new StoreDrainingRecord(store, toRecord(generation, 'draining', Math.floor(now() / 1000)), snapshot, log),
  };
}

function toRecord(generation: InterruptedGeneration, state: RecoveryRecord['state'], createdAt: number): RecoveryRecord {
  return createRecoveryRecord({
    requestId: generation.requestId,
    createdAt,
    interruptedReason: generation.reason,
    state,
    user: generation.user,
    model: generation.model,
    protocol: generation.protocol,
    provider: generation.provider,
    errorMessage: generation.errorMessage,
    resumedBy: generation.resumedBy,
    requestBodyText: generation.requestBodyText,
    responseBodyText: generation.responseBodyText,
  });
}

/**
 * One drain's record, from the client leaving to the drain's end. A class: it lives as long as
 * the drain (CONTRIBUTING.md, "Code"). Writes are one at a time; a refresh due while one is in
 * flight waits for the next tick of the timer.
 */
class StoreDrainingRecord implements DrainingRecord {
  #store: RecoveryStore;
  #record: RecoveryRecord;
  #snapshot: (() => string) | undefined;
  #log: (message: string) => void;
  /** Whether the draining record got stored: if not, `complete` adds the record instead. */
  #stored: Promise<boolean>;
  #writing: Promise<void> | undefined;
  #timer: NodeJS.Timeout;

  constructor(store: RecoveryStore, record: RecoveryRecord, snapshot: () => string, log: (message: string) => void) {
    this.#store = store;
    this.#record = record;
    this.#snapshot = snapshot;
    this.#log = log;
    this.#stored = store.add(record).then(
      () => true,
      (error: unknown) => {
        log(`could not save the draining recovery record of ${record.request_id}: ${String(error)}`);
        return false;
      },
    );
    this.#timer = setInterval(() => this.#refresh(), DRAINING_REFRESH_MS);
    this.#timer.unref();
  }

  async complete(generation: InterruptedGeneration): Promise<void> {
    clearInterval(this.#timer);
    this.#snapshot = undefined;
    await this.#writing;
    // The moment of the interruption stays the record's time.
    const record = toRecord(generation, 'complete', this.#record.created_at);
    // Removed (or pruned) while draining: it stays removed.
    if (await this.#stored) await this.#store.replace(record);
    else await this.#store.add(record);
  }

  #refresh(): void {
    if (this.#writing || !this.#snapshot) return;
    let text: string;
    try {
      text = this.#snapshot();
    } catch (error) {
      return this.#log(`could not read the drained response of ${this.#record.request_id}: ${String(error)}`);
    }
    if (text === this.#record.response.body_raw) return;
    // The request part (and its hash) does not change: no need to parse the body again.
    this.#record = Object.assign({}, this.#record, { response: { body_raw: text, response_body_size: Buffer.byteLength(text, 'utf8') } });
    const record = this.#record;
    this.#writing = this.#stored
      .then((stored) => (stored ? this.#store.replace(record) : false))
      .then(
        () => undefined,
        (error: unknown) => this.#log(`could not update the draining recovery record of ${record.request_id}: ${String(error)}`),
      )
      .finally(() => (this.#writing = undefined));
  }
}
