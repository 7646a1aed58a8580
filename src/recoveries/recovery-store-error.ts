/**
 * Failures of the recoveries store on disk. The message always names the file at fault, so the CLI
 * can print it as is and the server can log it; the HTTP layer turns it into a 500 without the
 * path (file paths are internal details).
 */
export type RecoveryStoreErrorCode =
  /** index.json or a record file cannot be parsed; it is left untouched. */
  | 'STORE_CORRUPT'
  /** A file cannot be read or written (permissions, disk full). */
  | 'STORE_IO'
  /** Another process held the lock for longer than the lock timeout. */
  | 'STORE_LOCKED'
  /** The lock was lost while held (the event loop stalled past the stale time): writes may have raced. */
  | 'LOCK_COMPROMISED'
  /** A record that cannot be stored (unsafe request_id, missing fields). */
  | 'INVALID_RECORD'
  | 'STORE_CLOSED';

export class RecoveryStoreError extends Error {
  override readonly name = 'RecoveryStoreError';
  readonly code: RecoveryStoreErrorCode;
  /** The file at fault, when there is one. */
  readonly file?: string;

  constructor(code: RecoveryStoreErrorCode, message: string, options: { file?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.file = options.file;
  }

  static is(value: unknown): value is RecoveryStoreError {
    return value instanceof RecoveryStoreError || (value instanceof Error && value.name === 'RecoveryStoreError');
  }
}

/** Wraps a file-system error with the file name; ENOENT is left to callers, which treat it as missing. */
export function toStoreIoError(error: unknown, file: string, action: string): RecoveryStoreError {
  if (RecoveryStoreError.is(error)) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return new RecoveryStoreError('STORE_IO', `Cannot ${action} ${file}${code ? ` (${code})` : ''}.`, { file, cause: error });
}
