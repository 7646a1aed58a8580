import { chmod, mkdir, readdir, readFile, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { INDEX_FILE_NAME, STORE_FILE_MODE } from './recovery-index-file.js';
import { recordJsonPieces } from './record-json-pieces.js';
import { isStorableRequestId, type RecoveryRecord } from './recovery-record.js';
import { RecoveryStoreError, toStoreIoError } from './recovery-store-error.js';
import { isTempFileName, prepareFileAtomic, writeFileAtomic, type PendingFile } from './write-file-atomic.js';

/**
 * One file per record, `records/<request_id>.json`: writing a record costs its own size only, and
 * the index never holds a body.
 */
export const STORE_DIRECTORY_MODE = 0o700;
export const RECORDS_FOLDER_NAME = 'records';

/** Temp files younger than this may belong to a write in flight (an add waits for the lock up to its timeout). */
export const LEFTOVER_MIN_AGE_MS = 15 * 60 * 1000;

export function recordFilePath(directory: string, requestId: string): string {
  return join(directory, RECORDS_FOLDER_NAME, `${requestId}.json`);
}

/** Creates the folders 0700 and fixes the modes of existing ones and of the index (owner only). */
export async function ensureStoreLayout(directory: string): Promise<void> {
  for (const folder of [directory, join(directory, RECORDS_FOLDER_NAME)]) {
    try {
      await mkdir(folder, { recursive: true, mode: STORE_DIRECTORY_MODE });
      await chmod(folder, STORE_DIRECTORY_MODE);
    } catch (error) {
      throw toStoreIoError(error, folder, 'create the recoveries folder');
    }
  }
  const indexFile = join(directory, INDEX_FILE_NAME);
  await chmod(indexFile, STORE_FILE_MODE).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw toStoreIoError(error, indexFile, 'set the mode of');
  });
}

/** The record file written and synced but not yet visible; the store commits it inside the lock. */
export async function prepareRecordFile(directory: string, record: RecoveryRecord): Promise<PendingFile> {
  const file = recordFilePath(directory, record.request_id);
  try {
    return await prepareFileAtomic(file, recordJsonPieces(record), { mode: STORE_FILE_MODE });
  } catch (error) {
    throw toStoreIoError(error, file, 'write the recovery record');
  }
}

/** undefined when the file is missing (removed meanwhile, or lost): the record is treated as missing. */
export async function readRecordFile(directory: string, requestId: string): Promise<RecoveryRecord | undefined> {
  const file = recordFilePath(directory, requestId);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw toStoreIoError(error, file, 'read the recovery record');
  }
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    throw new RecoveryStoreError('STORE_CORRUPT', `The recovery record ${file} is corrupt (not valid JSON: ${(error as Error).message}).`, { file });
  }
  if (typeof record !== 'object' || record === null || (record as RecoveryRecord).request_id !== requestId) {
    throw new RecoveryStoreError('STORE_CORRUPT', `The recovery record ${file} is corrupt (not the record ${requestId}).`, { file });
  }
  // Written before drains were recorded: every such record was complete.
  (record as RecoveryRecord).state ??= 'complete';
  return record as RecoveryRecord;
}

export async function deleteRecordFile(directory: string, requestId: string): Promise<void> {
  const file = recordFilePath(directory, requestId);
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw toStoreIoError(error, file, 'delete the recovery record');
  });
}

/**
 * Removes the temp files (and temp lock folders) a crash left behind. Only files older than LEFTOVER_MIN_AGE_MS go, so a
 * write in flight in another process is never touched. Also sets 0600 on every record file.
 * Record files are never removed here: one that no index entry names is indexed again by
 * reconcileRecordFiles.
 */
export async function sweepStoreLeftovers(directory: string, nowMs: number): Promise<number> {
  let removed = 0;
  const recordsFolder = join(directory, RECORDS_FOLDER_NAME);
  for (const folder of [directory, recordsFolder]) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) {
      const file = join(folder, name);
      if (folder === recordsFolder && name.endsWith('.json')) await chmod(file, STORE_FILE_MODE).catch(() => undefined);
      if (!isTempFileName(name)) continue;
      const details = await stat(file).catch(() => undefined);
      if (!details || nowMs - details.mtimeMs < LEFTOVER_MIN_AGE_MS) continue;
      // A folder: a lock being made or removed when its process was killed (store-lock.ts).
      await rm(file, { recursive: true, force: true }).then(() => (removed += 1), () => undefined);
    }
  }
  return removed;
}

/** The ids of the record files on disk (temp files, and names no request id can have, left out). */
export async function listRecordFileIds(directory: string): Promise<Set<string>> {
  const names = await readdir(join(directory, RECORDS_FOLDER_NAME)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw toStoreIoError(error, join(directory, RECORDS_FOLDER_NAME), 'list');
  });
  const ids = new Set<string>();
  for (const name of names) {
    const id = name.slice(0, -'.json'.length);
    if (name.endsWith('.json') && isStorableRequestId(id)) ids.add(id);
  }
  return ids;
}
