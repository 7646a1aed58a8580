import { join, resolve } from 'node:path';
import { assertStorableRecord } from './assert-storable-record.js';
import { createIndexUpdater } from './index-updater.js';
import { INDEX_FILE_NAME, readRecoveryIndex } from './recovery-index-file.js';
import { ensureStoreLayout, listRecordFileIds, prepareRecordFile, readRecordFile } from './record-files.js';
import { isStorableRequestId, toRecoverySummary, type RecoveryRecord, type RecoverySummary } from './recovery-record.js';
import { RecoveryStoreError } from './recovery-store-error.js';
import { DEFAULT_MAX_AGE_MS, DEFAULT_MAX_RECORDS } from './retention.js';
import { DEFAULT_STORE_LOCK_OPTIONS } from './store-lock.js';

/**
 * The recoveries store: `index.json` (lowdb, summaries only) and `records/<request_id>.json`
 * (one full record per file). Safe for several processes at once (the server adding while the CLI
 * removes): changes take an inter-process lock and re-read the index inside it; reads need no
 * lock because every file is replaced atomically. Nothing is cached between operations.
 *
 * `user`: when given, only that user's records exist for the call; another user's record is
 * indistinguishable from a missing one. When omitted (the local CLI), every record is visible.
 */
export interface RecoveryStoreOptions {
  directory: string;
  maxRecords?: number;
  /** 0: no age limit. */
  maxAgeMs?: number;
  /** Milliseconds since the epoch, for retention; tests pass a fixed clock. */
  now?: () => number;
  lockStaleMs?: number;
  lockTimeoutMs?: number;
  /** What the store repairs after a crash (a record file removed as unreadable); default stderr. */
  log?: (message: string) => void;
}

export interface RecoveryStore {
  /** Where the records are, for messages: the directory, or the database URL with its password blanked. */
  readonly location: string;
  /** Stores the record (replacing one with the same id), then prunes by count and age. */
  add(record: RecoveryRecord): Promise<void>;
  /**
   * Replaces the stored record of the same id, only if it is still stored (a draining record
   * growing, then completed): one removed or pruned meanwhile stays removed. false when it was not.
   */
  replace(record: RecoveryRecord): Promise<boolean>;
  /**
   * Notes on the record that a retry was answered from it (`resumed_by`), so it answers no other.
   * false when there was no such record (for this user), or it answered a retry already: the
   * caller that gets true is the one retry it answers.
   */
  markResumed(requestId: string, resumedBy: string, user?: string): Promise<boolean>;
  /** Newest first. */
  list(user?: string): Promise<RecoverySummary[]>;
  get(requestId: string, user?: string): Promise<RecoveryRecord | undefined>;
  lookup(requestBodyHash: string, user?: string): Promise<RecoverySummary[]>;
  /** false when there was no such record (for this user). */
  remove(requestId: string, user?: string): Promise<boolean>;
  /** The number of records removed, or that would be with dryRun. */
  removeAll(user?: string, options?: { dryRun?: boolean }): Promise<number>;
  /** Waits for queued changes; later calls fail with STORE_CLOSED. */
  close(): Promise<void>;
  /**
   * A store shared by several instances (docs/team.md): calls `listener`, every `pollMs` or so
   * until the store closes, with the records any instance completed since that a retry may be
   * answered from (complete, client_disconnected, no error, not resumed), and the drains still
   * running on another live instance that may become one (state `draining`). Some may come twice.
   */
  watchResumable?(listener: (summaries: RecoverySummary[]) => void, pollMs?: number): void;
}

/** The file store: its directory is where tests and the CLI of the same machine find it again. */
export interface FileRecoveryStore extends RecoveryStore {
  readonly directory: string;
}

export async function openRecoveryStore(options: RecoveryStoreOptions): Promise<FileRecoveryStore> {
  const directory = resolve(options.directory);
  await ensureStoreLayout(directory);
  const indexFile = join(directory, INDEX_FILE_NAME);
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const updater = createIndexUpdater({
    directory,
    lock: {
      staleMs: options.lockStaleMs ?? DEFAULT_STORE_LOCK_OPTIONS.staleMs,
      timeoutMs: options.lockTimeoutMs ?? DEFAULT_STORE_LOCK_OPTIONS.timeoutMs,
    },
    retention: { maxRecords: options.maxRecords ?? DEFAULT_MAX_RECORDS, maxAgeMs: options.maxAgeMs ?? DEFAULT_MAX_AGE_MS },
    now: options.now ?? Date.now,
    log,
  });
  let closed = false;
  await repairAfterCrash(indexFile, directory, updater);

  const assertOpen = (): void => {
    if (closed) throw new RecoveryStoreError('STORE_CLOSED', `The recoveries store ${directory} is closed.`);
  };
  const isVisible = (summary: RecoverySummary, user: string | undefined): boolean => user === undefined || summary.user === user;
  const listVisible = async (user: string | undefined): Promise<RecoverySummary[]> => {
    assertOpen();
    const { data } = await readRecoveryIndex(indexFile);
    return data.records.filter((summary) => isVisible(summary, user));
  };
  // Index order is insertion order; newest first is what a person looking for a record wants.
  const listNewestFirst = async (user: string | undefined): Promise<RecoverySummary[]> =>
    (await listVisible(user)).sort((left, right) => right.created_at - left.created_at);

  return {
    location: directory,
    directory,

    async add(record) {
      assertOpen();
      assertStorableRecord(record);
      // The body is written and synced outside the lock; inside it only a rename remains.
      const pending = await prepareRecordFile(directory, record);
      const summary = toRecoverySummary(record);
      try {
        await updater.update({
          prune: true,
          apply(index) {
            index.records = index.records.filter((existing) => existing.request_id !== summary.request_id);
            index.records.push(summary);
            return { result: undefined, removedIds: [], changed: true, commit: pending };
          },
        });
      } catch (error) {
        // Not committed (a no-op if it was: a batch that failed after the rename leaves a record
        // file that the next change indexes).
        await pending.discard();
        throw error;
      }
    },

    async replace(record) {
      assertOpen();
      assertStorableRecord(record);
      const pending = await prepareRecordFile(directory, record);
      const summary = toRecoverySummary(record);
      let replaced = false;
      try {
        replaced = await updater.update({
          apply(index) {
            const position = index.records.findIndex((existing) => existing.request_id === summary.request_id);
            if (position < 0) return { result: false, removedIds: [], changed: false };
            index.records[position] = summary;
            return { result: true, removedIds: [], changed: true, commit: pending };
          },
        });
      } finally {
        if (!replaced) await pending.discard();
      }
      return replaced;
    },

    async markResumed(this: RecoveryStore, requestId: string, resumedBy: string, user?: string) {
      const record = await this.get(requestId, user);
      if (!record || record.resumed_by !== undefined) return false;
      return this.replace(Object.assign({}, record, { resumed_by: resumedBy }));
    },

    list: listNewestFirst,

    async get(requestId, user) {
      assertOpen();
      if (!isStorableRequestId(requestId)) return undefined;
      const { data } = await readRecoveryIndex(indexFile);
      const summary = data.records.find((candidate) => candidate.request_id === requestId && isVisible(candidate, user));
      if (!summary) return undefined;
      const record = await readRecordFile(directory, requestId);
      // A body file of another user can only appear through a rewrite race; it stays invisible.
      return record && isVisible(toRecoverySummary(record), user) ? record : undefined;
    },

    async lookup(requestBodyHash, user) {
      return (await listNewestFirst(user)).filter((summary) => summary.request_body_hash === requestBodyHash);
    },

    async remove(requestId, user) {
      assertOpen();
      if (!isStorableRequestId(requestId)) return false;
      return updater.update({
        apply(index) {
          const position = index.records.findIndex((summary) => summary.request_id === requestId && isVisible(summary, user));
          if (position < 0) return { result: false, removedIds: [], changed: false };
          index.records.splice(position, 1);
          return { result: true, removedIds: [requestId], changed: true };
        },
      });
    },

    async removeAll(user, removeOptions = {}) {
      if (removeOptions.dryRun) return (await listVisible(user)).length;
      assertOpen();
      return updater.update({
        sweep: true,
        apply(index) {
          const removed = index.records.filter((summary) => isVisible(summary, user));
          index.records = index.records.filter((summary) => !isVisible(summary, user));
          return { result: removed.length, removedIds: removed.map((summary) => summary.request_id), changed: removed.length > 0 };
        },
      });
    },

    async close() {
      closed = true;
      await updater.drain();
    },
  };
}

/**
 * On open, a store left by a killed process gets its index rebuilt from the record files (see
 * reconcile-record-files.ts). The check itself takes no lock; only a difference takes one, and a
 * failure here (a corrupt index, the lock held) is left for the operation that follows to report.
 */
async function repairAfterCrash(indexFile: string, directory: string, updater: ReturnType<typeof createIndexUpdater>): Promise<void> {
  try {
    const [{ data }, fileIds] = await Promise.all([readRecoveryIndex(indexFile), listRecordFileIds(directory)]);
    const agree = data.records.length === fileIds.size && data.records.every((summary) => fileIds.has(summary.request_id));
    if (!agree) await updater.update({ apply: () => ({ result: undefined, removedIds: [], changed: false }) });
  } catch {
    // Reported by the next operation.
  }
}
