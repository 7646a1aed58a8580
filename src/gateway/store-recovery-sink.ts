import { createRecoveryRecord } from '../recoveries/recovery-record.js';
import type { RecoveryStore } from '../recoveries/recovery-store.js';
import type { RecoverySink } from './recovery-sink.js';

/** Interrupted generations become records in the recoveries store. */
export function createStoreRecoverySink(store: RecoveryStore, now: () => number = Date.now): RecoverySink {
  return {
    save: (generation) =>
      store.add(
        createRecoveryRecord({
          interruptedReason: generation.reason,
          createdAt: Math.floor(now() / 1000),
          ...generation,
        }),
      ),
  };
}
