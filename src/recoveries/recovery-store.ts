import { join, resolve } from 'node:path';
import { assertStorableRecord } from './assert-storable-record.js';
import { createIndexUpdater } from './index-updater.js';
import { INDEX_FILE_NAME, readRecoveryIndex } from './recovery-index-file.js';
import { deleteRecordFile, ensureStoreLayout, readRecordFile, writeRecordFile } from './record-files.js';
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
}

export interface RecoveryStore {
  readonly directory: string;
  /** Stores the record (replacing one with the same id), then prunes by count and age. */
  add(record: RecoveryRecord): Promise<void>;
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
}

export async function openRecoveryStore(options: RecoveryStoreOptions): Promise<RecoveryStore> {
  const directory = resolve(options.directory);
  await ensureStoreLayout(directory);
  const indexFile = join(directory, INDEX_FILE_NAME);
  const updater = createIndexUpdater({
    directory,
    lock: {
      staleMs: options.lockStaleMs ?? DEFAULT_STORE_LOCK_OPTIONS.staleMs,
      timeoutMs: options.lockTimeoutMs ?? DEFAULT_STORE_LOCK_OPTIONS.timeoutMs,
    },
    retention: { maxRecords: options.maxRecords ?? DEFAULT_MAX_RECORDS, maxAgeMs: options.maxAgeMs ?? DEFAULT_MAX_AGE_MS },
    now: options.now ?? Date.now,
  });
  let closed = false;

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
    directory,

    async add(record) {
      assertOpen();
      assertStorableRecord(record);
      // The body goes to its own file outside the lock: the lock is held only for the small index.
      await writeRecordFile(directory, record);
      const summary = toRecoverySummary(record);
      try {
        await updater.update({
          prune: true,
          apply(index) {
            index.records = index.records.filter((existing) => existing.request_id !== summary.request_id);
            index.records.push(summary);
            return { result: undefined, removedIds: [], changed: true };
          },
        });
      } catch (error) {
        // Not indexed, so nobody can see the body; remove it now rather than wait for the sweep
        // (a corrupt index blocks the sweep too). After LOCK_COMPROMISED the index may name it.
        if (!(RecoveryStoreError.is(error) && error.code === 'LOCK_COMPROMISED')) await deleteRecordFile(directory, record.request_id).catch(() => undefined);
        throw error;
      }
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
