import { recoveriesDirectory, resolveSwitchyardHome } from '../config/paths.js';
import { openRecoveryStore, type RecoveryStore } from '../recoveries/recovery-store.js';
import { RecoveryStoreError } from '../recoveries/recovery-store-error.js';
import { RECOVERIES_EXIT, type RecoveriesCliIo } from './recoveries-cli-io.js';

/**
 * Opens the store under $SWITCHYARD_HOME for one command and always closes it. A store failure
 * (corrupt index, permissions, lock held too long) is printed as one line naming the file and
 * ends the command with exit code 1, never with a stack trace.
 */
export async function withCliStore(io: RecoveriesCliIo, work: (store: RecoveryStore) => Promise<number>): Promise<number> {
  let store: RecoveryStore | undefined;
  try {
    store = await openRecoveryStore({ directory: recoveriesDirectory(resolveSwitchyardHome(io.env)) });
    return await work(store);
  } catch (error) {
    if (!RecoveryStoreError.is(error)) throw error;
    io.stderr.write(`error: ${error.message}\n`);
    return RECOVERIES_EXIT.notFound;
  } finally {
    await store?.close();
  }
}

export function writeUsageError(io: RecoveriesCliIo, message: string): number {
  io.stderr.write(`error: ${message}\n`);
  return RECOVERIES_EXIT.usage;
}
