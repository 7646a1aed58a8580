import { ConfigError } from '../config/config-error.js';
import { loadStoreConfig } from '../config/load-store-config.js';
import { defaultConfigPath, resolveSwitchyardHome } from '../config/paths.js';
import type { RecoveryStore } from '../recoveries/recovery-store.js';
import { openConfiguredRecoveryStore } from '../store/open-configured-store.js';
import { RecoveryStoreError } from '../recoveries/recovery-store-error.js';
import { RECOVERIES_EXIT, type RecoveriesCliIo } from './recoveries-cli-io.js';

/**
 * Opens the store `serve` uses for one command and always closes it: the one the config file
 * (`--config`, else $SWITCHYARD_HOME/config.json) names (`store`), by default the files under $SWITCHYARD_HOME. A
 * store failure (corrupt index, permissions, lock held too long, the database unreachable) or an
 * invalid `store` section is printed as one line naming the file or the database (its password blanked)
 * and ends the command with exit code 1, never with a stack trace.
 */
export async function withCliStore(io: RecoveriesCliIo, work: (store: RecoveryStore) => Promise<number>): Promise<number> {
  let store: RecoveryStore | undefined;
  try {
    const home = resolveSwitchyardHome(io.env);
    // The store section alone: a mistake elsewhere in the config does not hide the records.
    const storeConfig = await loadStoreConfig({ path: io.configPath ?? defaultConfigPath(home), explicit: io.configPath !== undefined, env: io.env });
    store = await openConfiguredRecoveryStore(storeConfig, home);
    return await work(store);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`error: invalid config: ${error.message}\n`);
      return RECOVERIES_EXIT.notFound;
    }
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
