import type { StoreConfig } from '../config/config-types.js';
import { recoveriesDirectory } from '../config/paths.js';
import { openRecoveryStore, type RecoveryStore } from '../recoveries/recovery-store.js';

/**
 * The recoveries store the config names (`store`): the files under `$SWITCHYARD_HOME/recoveries`,
 * or the PostgreSQL database, migrated on open. `serve` and the CLI open it the same way, so both
 * see the same records.
 */
export async function openConfiguredRecoveryStore(
  store: StoreConfig,
  home: string,
  retention: { maxRecords?: number; maxAgeMs?: number } = {},
): Promise<RecoveryStore> {
  switch (store.type) {
    case 'files':
      return openRecoveryStore({ directory: recoveriesDirectory(home), maxRecords: retention.maxRecords, maxAgeMs: retention.maxAgeMs });
    case 'postgres': {
      // Loaded only for a PostgreSQL store: the driver costs about 15 MB of memory.
      const { openPostgresRecoveryStore } = await import('./postgres-recovery-store.js');
      return openPostgresRecoveryStore({ url: store.url, maxRecords: retention.maxRecords, maxAgeMs: retention.maxAgeMs, drainLeaseMs: store.drainLeaseMs });
    }
    default: {
      const unknown: never = store;
      // Its type only: a store's other fields may hold a URL with a password.
      throw new Error(`unknown store type ${JSON.stringify((unknown as { type?: unknown }).type)}`);
    }
  }
}
