import type { GatewayConfig, StoreConfig } from '../config/config-types.js';
import { MemoryKeyPool, type KeyPool } from '../providers/key-pool.js';
import { SharedKeyPool } from '../providers/shared-key-pool.js';

export interface ConfiguredKeyPool {
  keys: KeyPool;
  /** Stops sharing (after the writes in flight) and closes the database's connections. */
  close(): Promise<void>;
}

/**
 * The key pools the config's `store` calls for: in memory with the files store (one instance),
 * shared through the database with PostgreSQL, so that the instances on one database skip the
 * keys any of them found refused or rate-limited (docs/team.md). Opening never waits for the
 * database: the shared pool works from memory until it answers.
 */
export async function openConfiguredKeyPool(store: StoreConfig, getConfig: () => GatewayConfig, log: (message: string) => void): Promise<ConfiguredKeyPool> {
  switch (store.type) {
    case 'files':
      return { keys: new MemoryKeyPool(), close: async () => undefined };
    case 'postgres': {
      // Loaded only for a PostgreSQL store: the driver costs about 15 MB of memory.
      const { PostgresKeyStates } = await import('./postgres-key-states.js');
      const keys = new SharedKeyPool({ store: new PostgresKeyStates({ url: store.url, log }), getConfig, log });
      return { keys, close: () => keys.close() };
    }
    default: {
      const unknown: never = store;
      // Its type only: a store's other fields may hold a URL with a password.
      throw new Error(`unknown store type ${JSON.stringify((unknown as { type?: unknown }).type)}`);
    }
  }
}
