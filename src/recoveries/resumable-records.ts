import { hashRequestBody } from './hash-request-body.js';
import type { RecoverySummary } from './recovery-record.js';
import type { RecoveryStore } from './recovery-store.js';

/**
 * A record a retry may be answered from (docs/recoveries.md, "Resume on retry"): a drain still
 * running (`live`), or a complete answer kept in the store. `Live` is what the gateway follows
 * while the upstream is still being read.
 */
export interface ResumableRecord<Live> {
  readonly requestId: string;
  readonly user: string;
  readonly model: string;
  readonly protocol: string;
  readonly hash: string;
  /** Milliseconds since the epoch: the window is counted from here. */
  readonly interruptedAt: number;
  /** The drain in progress; none once its record is complete. */
  live: Live | undefined;
  /** Settles once the record on disk is final (a drain's completion written). */
  settled: Promise<void>;
  /** The request answered from it: it answers no other. */
  usedBy: string | undefined;
}

/**
 * The records that may answer a retry, in memory, by user: filled from the store when the server
 * starts and by the recovery observer as drains begin. A request of a user with none (nearly
 * every request) costs a map lookup: its body is hashed only when that user has a record of the
 * same model and protocol in the window.
 */
export class ResumableRecords<Live> {
  #byUser = new Map<string, ResumableRecord<Live>[]>();
  /** Every id added within the window, used or not: a shared store reports a record again (watchResumable). */
  #known = new Map<string, number>();

  add(record: ResumableRecord<Live>): void {
    this.#known.set(record.requestId, record.interruptedAt);
    const list = this.#byUser.get(record.user);
    if (list) list.push(record);
    else this.#byUser.set(record.user, [record]);
  }

  /** The record can answer no retry (its drain failed, or it was deleted). */
  remove(record: ResumableRecord<Live>): void {
    const list = this.#byUser.get(record.user);
    if (!list) return;
    const position = list.indexOf(record);
    if (position >= 0) list.splice(position, 1);
    if (list.length === 0) this.#byUser.delete(record.user);
  }

  /**
   * The unused record of `user` for this model, protocol and body, interrupted within `windowMs`
   * of `now`; records past the window are forgotten on the way.
   */
  find(query: { user: string; model: string; protocol: string; body: unknown; now: number; windowMs: number }): ResumableRecord<Live> | undefined {
    const list = this.#byUser.get(query.user);
    if (!list) return undefined;
    let hash: string | undefined;
    let found: ResumableRecord<Live> | undefined;
    for (let position = list.length - 1; position >= 0; position--) {
      const record = list[position];
      // A drain still running is kept past the window: it starts counting when it is complete.
      if (record.usedBy !== undefined || (record.live === undefined && query.now - record.interruptedAt > query.windowMs)) {
        list.splice(position, 1);
        continue;
      }
      if (found || record.model !== query.model || record.protocol !== query.protocol) continue;
      hash ??= hashRequestBody(query.body);
      if (record.hash === hash) found = record;
    }
    if (list.length === 0) this.#byUser.delete(query.user);
    return found;
  }

  /** Every user's complete, unused records of the window, as the store holds them when the server starts. */
  async load(store: RecoveryStore, now: number, windowMs: number): Promise<void> {
    this.addSummaries(await store.list(), now, windowMs);
  }

  /**
   * The complete, unused records among `summaries` (the store's, from any instance), unless known
   * already: a record this instance made, loaded or used is not added twice. With `draining`, also
   * the drains another instance runs (a shared store's `watchResumable`): a retry of one follows
   * it through the store.
   */
  addSummaries(summaries: readonly RecoverySummary[], now: number, windowMs: number, options: { draining?: boolean } = {}): void {
    for (const [requestId, interruptedAt] of this.#known) if (now - interruptedAt > windowMs) this.#known.delete(requestId);
    for (const summary of summaries) {
      const interruptedAt = summary.created_at * 1000;
      // Only a drain that ran to its end holds a whole answer (its reason stays client_disconnected
      // and, unlike a cancelled or cut one, the gateway checks it has no error when it is used).
      const usable = summary.state === 'complete' || (options.draining === true && summary.state === 'draining');
      if (!usable || summary.interrupted_reason !== 'client_disconnected' || summary.resumed_by !== undefined) continue;
      if (now - interruptedAt > windowMs || this.#known.has(summary.request_id)) continue;
      this.add({
        requestId: summary.request_id,
        user: summary.user,
        model: summary.model,
        protocol: summary.protocol,
        hash: summary.request_body_hash,
        interruptedAt,
        live: undefined,
        settled: Promise.resolve(),
        usedBy: undefined,
      });
    }
  }
}
