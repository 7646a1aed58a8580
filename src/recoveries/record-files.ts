import { chmod, mkdir, readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { INDEX_FILE_NAME, STORE_FILE_MODE } from './recovery-index-file.js';
import type { RecoveryRecord } from './recovery-record.js';
import { RecoveryStoreError, toStoreIoError } from './recovery-store-error.js';
import { isTempFileName, writeFileAtomic } from './write-file-atomic.js';

/**
 * One file per record, `records/<request_id>.json`: writing a record costs its own size only, and
 * the index never holds a body.
 */
export const STORE_DIRECTORY_MODE = 0o700;
export const RECORDS_FOLDER_NAME = 'records';

/** Leftovers younger than this may belong to a write in flight (an add waits for the lock up to its timeout). */
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

export async function writeRecordFile(directory: string, record: RecoveryRecord): Promise<void> {
  const file = recordFilePath(directory, record.request_id);
  try {
    await writeFileAtomic(file, JSON.stringify(record), { mode: STORE_FILE_MODE });
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
  return record as RecoveryRecord;
}

export async function deleteRecordFile(directory: string, requestId: string): Promise<void> {
  const file = recordFilePath(directory, requestId);
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw toStoreIoError(error, file, 'delete the recovery record');
  });
}

/**
 * Removes what a crash left behind: temp files, and record files that no index entry names (the
 * process died between writing the body and adding its index entry). Only files older than
 * LEFTOVER_MIN_AGE_MS go, so a write in flight in another process is never touched. Also sets
 * 0600 on every record file. Call it inside the store lock, with the index just read.
 */
export async function sweepStoreLeftovers(directory: string, indexedIds: ReadonlySet<string>, nowMs: number): Promise<number> {
  let removed = 0;
  const recordsFolder = join(directory, RECORDS_FOLDER_NAME);
  for (const folder of [directory, recordsFolder]) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) {
      const file = join(folder, name);
      const isRecordFile = folder === recordsFolder && name.endsWith('.json');
      if (isRecordFile) await chmod(file, STORE_FILE_MODE).catch(() => undefined);
      const isOrphan = isRecordFile && !indexedIds.has(name.slice(0, -'.json'.length));
      if (!isTempFileName(name) && !isOrphan) continue;
      const details = await stat(file).catch(() => undefined);
      if (!details?.isFile() || nowMs - details.mtimeMs < LEFTOVER_MIN_AGE_MS) continue;
      await unlink(file).then(() => (removed += 1), () => undefined);
    }
  }
  return removed;
}
