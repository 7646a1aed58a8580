import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { basename, dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { RecoveryStoreError } from './recovery-store-error.js';
import { TEMP_FILE_SUFFIX } from './write-file-atomic.js';

/**
 * The inter-process lock around every read-modify-write of the index: the server adds records
 * while `gateway recoveries rm` removes them. proper-lockfile makes the lock with mkdir (atomic on
 * every file system) and refreshes its mtime while held, so a lock left by a crashed process goes
 * stale after `staleMs` and is taken over. That is 2 s at the least, so the lock also holds its
 * holder's pid and host: a waiter on the same host that finds the holder dead takes the lock over
 * at once. (A holder on another host, or a pid reused meanwhile, still waits for staleness.)
 */
export interface StoreLockOptions {
  /** A lock not refreshed for this long belongs to a dead process. proper-lockfile's minimum is 2 s. */
  staleMs: number;
  /** Give up after waiting this long; longer than staleMs so a dead holder's lock is taken over first. */
  timeoutMs: number;
}

export const DEFAULT_STORE_LOCK_OPTIONS: StoreLockOptions = { staleMs: 10_000, timeoutMs: 30_000 };

export const LOCK_DIRECTORY_NAME = 'index.json.lock';
export const LOCK_OWNER_FILE_NAME = 'owner.json';

/** Who holds a lock: written into the lock directory right after it is made. */
export interface LockOwner {
  pid: number;
  host: string;
}

/**
 * The file system proper-lockfile works with. Its mkdir, the acquisition, makes the lock with its
 * owner file already inside: a temp folder, renamed into place. A kill lands right after a system
 * call more often than its share of the time suggests, so a lock made by mkdir and then written to
 * would often be left without its owner by a killed holder (then only staleness frees it). The
 * rename fails when the lock exists with its owner file, and replaces an empty lock folder, which
 * only a holder killed while releasing leaves. Removal (release, or a stale lock) renames the lock
 * away first, so that nobody ever deletes the files of a lock taken meanwhile.
 */
const lockFileSystem = Object.assign({}, fs, {
  mkdir(path: string, callback: (error: NodeJS.ErrnoException | null) => void): void {
    createLockFolder(path).then(() => callback(null), callback);
  },
  rmdir(path: string, callback: (error: NodeJS.ErrnoException | null) => void): void {
    removeLockFolder(path).then(() => callback(null), callback);
  },
});

async function createLockFolder(path: string): Promise<void> {
  const temp = lockTempPath(path);
  const owner: LockOwner = { pid: process.pid, host: hostname() };
  try {
    await mkdir(temp, { mode: 0o700 });
    await writeFile(join(temp, LOCK_OWNER_FILE_NAME), JSON.stringify(owner));
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { recursive: true, force: true }).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    // proper-lockfile reads EEXIST as "held": it then checks staleness and we check the owner.
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EPERM' || code === 'EISDIR') throw Object.assign(new Error(`${path} exists`), { code: 'EEXIST' });
    throw error;
  }
}

async function removeLockFolder(path: string): Promise<void> {
  const away = lockTempPath(path);
  await rename(path, away);
  await rm(away, { recursive: true, force: true });
}

/** A temp name (swept like any temp file when a kill leaves it), in the store folder. */
function lockTempPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomUUID()}${TEMP_FILE_SUFFIX}`);
}

export async function withStoreLock<T>(directory: string, options: StoreLockOptions, work: () => Promise<T>): Promise<T> {
  const lockPath = join(directory, LOCK_DIRECTORY_NAME);
  let compromised: Error | undefined;
  const release = await acquire(directory, lockPath, options, (error) => {
    // proper-lockfile's default handler throws from a timer, which would crash the server.
    compromised = error;
  });
  try {
    const result = await work();
    if (compromised) {
      throw new RecoveryStoreError('LOCK_COMPROMISED', `The lock ${lockPath} was lost while held: ${compromised.message}.`, { file: lockPath, cause: compromised });
    }
    return result;
  } finally {
    // A compromised lock is already released (ERELEASED); nothing more to undo.
    await release().catch(() => undefined);
  }
}

async function acquire(directory: string, lockPath: string, options: StoreLockOptions, onCompromised: (error: Error) => void): Promise<() => Promise<void>> {
  const deadline = Date.now() + options.timeoutMs;
  // Our own retry loop rather than proper-lockfile's `retries`: the wait is bounded in time, not
  // in attempts, and the jitter keeps several waiting processes from retrying in lock step.
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await lockfile.lock(join(directory, 'index.json'), {
        realpath: false, // the index does not exist before the first write
        lockfilePath: lockPath,
        stale: options.staleMs,
        retries: 0,
        onCompromised,
        fs: lockFileSystem,
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') {
        throw new RecoveryStoreError('STORE_IO', `Cannot create the lock ${lockPath} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`, { file: lockPath, cause: error });
      }
      if (await takeOverFromDeadHolder(lockPath)) continue;
      if (Date.now() >= deadline) {
        throw new RecoveryStoreError('STORE_LOCKED', `The recoveries store is locked by another process (${lockPath}); gave up after ${options.timeoutMs} ms.`, { file: lockPath, cause: error });
      }
      await sleep(backoffDelayMs(attempt));
    }
  }
}

/** 5 ms doubling up to 200 ms, each delay randomised between half and all of it. */
export function backoffDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(200, 5 * 2 ** attempt);
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** true when the lock was held by a process of this host that no longer exists, and is gone now. */
async function takeOverFromDeadHolder(lockPath: string): Promise<boolean> {
  const owner = await readLockOwner(lockPath);
  if (!owner || isLockOwnerAlive(owner)) return false;
  // One takeover at a time: of two waiters that both saw the dead holder, the second must not
  // remove the lock that the first has taken meanwhile.
  const guard = `${lockPath}.takeover`;
  try {
    await mkdir(guard);
  } catch (error) {
    // A guard is held for a few milliseconds; an old one was left by a process killed while taking over.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') await removeIfOlderThan(guard, TAKEOVER_GUARD_STALE_MS);
    return false;
  }
  try {
    const current = await readLockOwner(lockPath);
    if (!current || current.pid !== owner.pid || current.host !== owner.host) return false;
    await removeLockFolder(lockPath).catch(() => undefined);
    return true;
  } finally {
    await rmdir(guard).catch(() => undefined);
  }
}

const TAKEOVER_GUARD_STALE_MS = 1000;

export async function readLockOwner(lockPath: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await readFile(join(lockPath, LOCK_OWNER_FILE_NAME), 'utf8')) as Partial<LockOwner>;
    return Number.isInteger(owner.pid) && typeof owner.host === 'string' ? { pid: owner.pid!, host: owner.host } : undefined;
  } catch {
    // Not written yet, or the lock is gone: nothing to decide on.
    return undefined;
  }
}

/** A holder on another host cannot be checked, so it counts as alive (its lock still goes stale). */
export function isLockOwnerAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname() || owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

async function removeIfOlderThan(folder: string, ageMs: number): Promise<void> {
  const details = await stat(folder).catch(() => undefined);
  if (details && Date.now() - details.mtimeMs > ageMs) await rmdir(folder).catch(() => undefined);
}
