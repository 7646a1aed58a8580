import { readFile } from 'node:fs/promises';
import { Low, type Adapter } from 'lowdb';
import { INTERRUPTED_REASONS, RECOVERY_STATES, type RecoverySummary } from './recovery-record.js';
import { RecoveryStoreError, toStoreIoError } from './recovery-store-error.js';
import { writeFileAtomic } from './write-file-atomic.js';

/** `index.json`: the summaries only, so reading and rewriting it stays small whatever the bodies weigh. */
export interface RecoveryIndex {
  version: 1;
  records: RecoverySummary[];
}

export const INDEX_FILE_NAME = 'index.json';
export const STORE_FILE_MODE = 0o600;

export function createEmptyRecoveryIndex(): RecoveryIndex {
  return { version: 1, records: [] };
}

/**
 * The lowdb adapter of the index. lowdb's own JSONFile (steno) writes atomically (temp file +
 * rename) but without fsync and with the umask's mode (0644 here), and its parse error does not
 * name the file; this adapter keeps lowdb's contract and adds the three: writeFileAtomic syncs
 * and creates the file 0600, and a file that is not a valid index is a STORE_CORRUPT error, so
 * nothing ever writes an empty index over it.
 */
export class RecoveryIndexFile implements Adapter<RecoveryIndex> {
  constructor(readonly file: string) {}

  async read(): Promise<RecoveryIndex | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      // No index yet: a new store. Any other failure must not look like an empty store.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw toStoreIoError(error, this.file, 'read the recoveries index');
    }
    return parseRecoveryIndex(text, this.file);
  }

  async write(index: RecoveryIndex): Promise<void> {
    try {
      await writeFileAtomic(this.file, JSON.stringify(index), { mode: STORE_FILE_MODE });
    } catch (error) {
      throw toStoreIoError(error, this.file, 'write the recoveries index');
    }
  }
}

/** A fresh read of the index from disk: never cached, another process may have changed it. */
export async function readRecoveryIndex(file: string): Promise<Low<RecoveryIndex>> {
  const database = new Low(new RecoveryIndexFile(file), createEmptyRecoveryIndex());
  await database.read();
  return database;
}

export function parseRecoveryIndex(text: string, file: string): RecoveryIndex {
  const corrupt = (detail: string): RecoveryStoreError =>
    new RecoveryStoreError(
      'STORE_CORRUPT',
      `The recoveries index ${file} is corrupt (${detail}). It was left untouched; move it aside to start an empty store.`,
      { file },
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw corrupt(`not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw corrupt('expected a JSON object');
  const { version, records } = value as { version?: unknown; records?: unknown };
  if (version !== 1) throw corrupt(`unknown version ${JSON.stringify(version)}`);
  if (!Array.isArray(records)) throw corrupt('"records" is not an array');
  records.forEach((record, position) => {
    if (!isRecoverySummary(record)) throw corrupt(`records[${position}] is not a record summary`);
    // Written before drains were recorded: every such record was complete.
    record.state ??= 'complete';
  });
  return { version, records: records as RecoverySummary[] };
}

function isRecoverySummary(value: unknown): value is RecoverySummary {
  if (typeof value !== 'object' || value === null) return false;
  const summary = value as Record<string, unknown>;
  return (
    typeof summary.request_id === 'string' &&
    typeof summary.created_at === 'number' &&
    (INTERRUPTED_REASONS as readonly unknown[]).includes(summary.interrupted_reason) &&
    (summary.state === undefined || (RECOVERY_STATES as readonly unknown[]).includes(summary.state)) &&
    typeof summary.request_body_hash === 'string' &&
    typeof summary.user === 'string' &&
    typeof summary.model === 'string' &&
    typeof summary.protocol === 'string' &&
    typeof summary.provider === 'string' &&
    typeof summary.response_body_size === 'number' &&
    (summary.resumed_by === undefined || typeof summary.resumed_by === 'string')
  );
}
