import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { RecoveryStoreError } from './recovery-store-error.js';

/**
 * The inter-process lock around every read-modify-write of the index: the server adds records
 * while `gateway recoveries rm` removes them. proper-lockfile makes the lock with mkdir (atomic on
 * every file system) and refreshes its mtime while held, so a lock left by a crashed process goes
 * stale after `staleMs` and is taken over.
 */
export interface StoreLockOptions {
  /** A lock not refreshed for this long belongs to a dead process. proper-lockfile's minimum is 2 s. */
  staleMs: number;
  /** Give up after waiting this long; longer than staleMs so a dead holder's lock is taken over first. */
  timeoutMs: number;
}

export const DEFAULT_STORE_LOCK_OPTIONS: StoreLockOptions = { staleMs: 10_000, timeoutMs: 30_000 };

export const LOCK_DIRECTORY_NAME = 'index.json.lock';

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
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') {
        throw new RecoveryStoreError('STORE_IO', `Cannot create the lock ${lockPath} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`, { file: lockPath, cause: error });
      }
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
