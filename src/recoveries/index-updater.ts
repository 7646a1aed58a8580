import { join } from 'node:path';
import { reconcileRecordFiles } from './reconcile-record-files.js';
import { deleteRecordFile, sweepStoreLeftovers } from './record-files.js';
import { INDEX_FILE_NAME, readRecoveryIndex, type RecoveryIndex } from './recovery-index-file.js';
import { selectRecordsToPrune, type RetentionLimits } from './retention.js';
import { withStoreLock, type StoreLockOptions } from './store-lock.js';
import type { PendingFile } from './write-file-atomic.js';

/**
 * Every change to the index goes through here: take the inter-process lock, read the index fresh
 * from disk, apply the change, write it atomically, delete the body files of removed records,
 * release. Changes queued while a write is in flight are applied together in the next one, so
 * dozens of interrupted requests at once cost a few index writes, not dozens, and requests of
 * one process never contend with each other for the lock file.
 *
 * The order inside the lock is what makes a crash cheap (reconcile-record-files.ts): new record
 * files become visible before the index names them, removed ones go before the index forgets
 * them, and each batch first indexes again what a killed process left between the two.
 */
export interface IndexChange<Result> {
  /**
   * Mutates the index; returns the result, the ids whose body files must go, and the record file
   * to make visible with this change (written beforehand, outside the lock).
   */
  apply(index: RecoveryIndex): { result: Result; removedIds: string[]; changed: boolean; commit?: PendingFile };
  /** Apply retention after this change (adds do; removals do not need to). */
  prune?: boolean;
  /** Sweep crash leftovers in the same lock. */
  sweep?: boolean;
}

export interface IndexUpdaterOptions {
  directory: string;
  lock: StoreLockOptions;
  retention: RetentionLimits;
  now: () => number;
  /** Files found unreadable and removed, or left in place; never thrown at the caller. */
  log: (message: string) => void;
}

interface QueuedChange {
  change: IndexChange<unknown>;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

export interface IndexUpdater {
  update<Result>(change: IndexChange<Result>): Promise<Result>;
  /** Resolves once every queued change is settled. */
  drain(): Promise<void>;
}

export function createIndexUpdater(options: IndexUpdaterOptions): IndexUpdater {
  const indexFile = join(options.directory, INDEX_FILE_NAME);
  let queue: QueuedChange[] = [];
  let running: Promise<void> | undefined;
  // A crashed process leaves its leftovers once; sweeping on this instance's first add is enough.
  let sweptOnAdd = false;

  async function runQueue(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      await applyBatch(batch);
    }
    running = undefined;
  }

  async function applyBatch(batch: QueuedChange[]): Promise<void> {
    const settle: Array<() => void> = [];
    try {
      await withStoreLock(options.directory, options.lock, async () => {
        const database = await readRecoveryIndex(indexFile);
        const index = database.data;
        const removedIds: string[] = [];
        const commits: PendingFile[] = [];
        let changed = await reconcileRecordFiles(options.directory, index, options.log).catch((error: unknown) => {
          options.log(`recoveries: could not compare the index with the record files (${error instanceof Error ? error.message : String(error)})`);
          return false;
        });
        for (const queued of batch) {
          try {
            const outcome = queued.change.apply(index);
            removedIds.push(...outcome.removedIds);
            changed ||= outcome.changed;
            if (outcome.commit) commits.push(outcome.commit);
            settle.push(() => queued.resolve(outcome.result));
          } catch (error) {
            settle.push(() => queued.reject(error));
          }
        }
        if (batch.some((queued) => queued.change.prune)) {
          const { kept, pruned } = selectRecordsToPrune(index.records, options.retention, options.now());
          index.records = kept;
          removedIds.push(...pruned.map((record) => record.request_id));
          changed ||= pruned.length > 0;
        }
        // An id removed and added again in one batch keeps its (new) body file.
        const indexedIds = new Set(index.records.map((record) => record.request_id));
        await Promise.all(commits.map((pending) => pending.commit()));
        // Best effort: a file that could not go is an entry-less record the next batch brings back.
        const deletions = [...new Set(removedIds)].filter((id) => !indexedIds.has(id)).map((id) => deleteRecordFile(options.directory, id));
        await Promise.allSettled(deletions);
        // Removing a missing record writes nothing: a read-only CLI never rewrites the index.
        if (changed) await database.write();
        const sweepForAdd = !sweptOnAdd && batch.some((queued) => queued.change.prune);
        if (sweepForAdd || batch.some((queued) => queued.change.sweep)) {
          sweptOnAdd ||= sweepForAdd;
          // File times are real, so the sweep uses the real clock, not options.now.
          await sweepStoreLeftovers(options.directory, Date.now()).catch(() => undefined);
        }
      });
    } catch (error) {
      // The lock, the read or the write failed, so the index is as it was; the one exception is
      // LOCK_COMPROMISED, raised after the write, when another process may have raced with it.
      for (const queued of batch) queued.reject(error);
      return;
    }
    for (const finish of settle) finish();
  }

  return {
    update<Result>(change: IndexChange<Result>): Promise<Result> {
      return new Promise<Result>((resolve, reject) => {
        queue.push({ change, resolve: resolve as (result: unknown) => void, reject });
        running ??= runQueue();
      });
    },
    async drain(): Promise<void> {
      while (running) await running;
    },
  };
}
