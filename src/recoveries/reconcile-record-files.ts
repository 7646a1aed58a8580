import { unlink } from 'node:fs/promises';
import { assertStorableRecord } from './assert-storable-record.js';
import { listRecordFileIds, readRecordFile, recordFilePath } from './record-files.js';
import type { RecoveryIndex } from './recovery-index-file.js';
import { toRecoverySummary, type RecoveryRecord } from './recovery-record.js';
import { RecoveryStoreError } from './recovery-store-error.js';

/**
 * Makes the index agree with the record files after a crash. A record's file is made visible
 * before its index entry, and a removed record's file goes before its entry, so a process killed
 * in between leaves either a record file that no entry names (an add that was cut: it is indexed
 * again, rebuilt from the file) or an entry whose file is gone (a removal that was cut: the entry
 * goes too). A file that cannot be read as a record is the only one removed, and it is logged.
 * Call it inside the store lock, with the index just read; true when the index changed.
 */
export async function reconcileRecordFiles(directory: string, index: RecoveryIndex, log: (message: string) => void): Promise<boolean> {
  const fileIds = await listRecordFileIds(directory);
  const kept = index.records.filter((summary) => fileIds.has(summary.request_id));
  let changed = kept.length !== index.records.length;
  index.records = kept;
  const indexedIds = new Set(kept.map((summary) => summary.request_id));
  for (const id of fileIds) {
    if (indexedIds.has(id)) continue;
    const record = await readUnindexedRecord(directory, id, log);
    if (!record) continue;
    index.records.push(toRecoverySummary(record));
    changed = true;
  }
  return changed;
}

async function readUnindexedRecord(directory: string, id: string, log: (message: string) => void): Promise<RecoveryRecord | undefined> {
  const file = recordFilePath(directory, id);
  try {
    const record = await readRecordFile(directory, id);
    if (record) assertStorableRecord(record);
    return record;
  } catch (error) {
    if (!RecoveryStoreError.is(error) || (error.code !== 'STORE_CORRUPT' && error.code !== 'INVALID_RECORD')) {
      log(`recoveries: cannot read ${file} to index it again; left in place (${error instanceof Error ? error.message : String(error)})`);
      return undefined;
    }
    // Every record file is renamed into place whole, so a part-written one is not a crash of ours.
    await unlink(file).catch(() => undefined);
    log(`recoveries: removed ${file}, which is not a readable recovery record and was in no index entry (${error.message})`);
    return undefined;
  }
}
