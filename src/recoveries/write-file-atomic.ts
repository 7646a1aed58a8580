import { randomUUID } from 'node:crypto';
import { open, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Temp files start with a dot and end in `.tmp`: readers skip them, the sweep removes old ones. */
export const TEMP_FILE_SUFFIX = '.tmp';

export function isTempFileName(name: string): boolean {
  return name.startsWith('.') && name.endsWith(TEMP_FILE_SUFFIX);
}

/**
 * Writes `data` to `file` so that readers see either the old or the new content, never a part:
 * a temp file in the same folder (rename is only atomic within one file system), fsync so the
 * content is on disk before the rename makes it visible, then rename and fsync the folder so the
 * rename itself survives a power cut. The mode is set on the temp file before any byte is
 * written, so the data is never readable by others, whatever the umask.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, options: { mode: number }): Promise<void> {
  const pending = await prepareFileAtomic(file, data, options);
  await pending.commit();
}

/**
 * A written and synced temp file, not yet visible: the slow part of a write, done outside the
 * store lock, so that inside it only the rename remains (or the discard, when the change no
 * longer applies). A crash before the commit leaves only the temp file.
 */
export class PendingFile {
  constructor(
    readonly file: string,
    readonly tempFile: string,
  ) {}

  async commit(): Promise<void> {
    try {
      await rename(this.tempFile, this.file);
    } catch (error) {
      await this.discard();
      throw error;
    }
    await syncFolder(dirname(this.file));
  }

  async discard(): Promise<void> {
    await unlink(this.tempFile).catch(() => undefined);
  }
}

/**
 * `data` as pieces (an iterable of strings) is written one piece after another, the event loop
 * free between them: a large record is made into text a piece at a time (`record-json-pieces.ts`).
 */
export async function prepareFileAtomic(file: string, data: string | Uint8Array | Iterable<string>, options: { mode: number }): Promise<PendingFile> {
  // A unique name per write: two processes (or two writes in one) never share a temp file.
  const pending = new PendingFile(file, join(dirname(file), `.${basename(file)}.${process.pid}.${randomUUID()}${TEMP_FILE_SUFFIX}`));
  try {
    const handle = await open(pending.tempFile, 'wx', options.mode);
    try {
      await handle.chmod(options.mode);
      await writeFile(handle, data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await pending.discard();
    throw error;
  }
  return pending;
}

async function syncFolder(folder: string): Promise<void> {
  // Some file systems refuse fsync on a directory (EINVAL, EISDIR on Windows); the data itself is
  // already synced, so that only weakens durability of the rename, not atomicity.
  const handle = await open(folder, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // See above.
  } finally {
    await handle.close();
  }
}
