import type { StoreConfig } from '../config/config-types.js';
import { requestLogDirectory } from '../log/request-log.js';
import { fileRequestLogSource, type RequestLogSink, type RequestLogSource } from '../log/request-log-store.js';
import { RequestLogWriter } from '../log/request-log-writer.js';

export interface ConfiguredRequestLog {
  /** Where `serve` writes; none for a reader (the CLI). */
  sink: RequestLogSink | undefined;
  source: RequestLogSource;
}

/**
 * The request log the config's `store` names: files under `$SWITCHYARD_HOME/log`, or the shared
 * PostgreSQL database (docs/team.md). `serve` opens it to write (`write`), the CLI to read; both
 * see the same entries. A database that cannot be reached or logged in to fails the open, its
 * password blanked.
 */
export async function openConfiguredRequestLog(
  store: StoreConfig,
  home: string,
  options: { write?: { maxAgeMs: number; maxBytes: number }; log: (message: string) => void },
): Promise<ConfiguredRequestLog> {
  switch (store.type) {
    case 'files': {
      const directory = requestLogDirectory(home);
      const write = options.write;
      const sink = write && new RequestLogWriter({ directory, maxAgeMs: write.maxAgeMs, maxBytes: write.maxBytes, onError: (error) => options.log(`request log: ${(error as Error).message ?? String(error)}`) });
      return { sink, source: fileRequestLogSource(directory) };
    }
    case 'postgres': {
      // Loaded only for a PostgreSQL store, as the recoveries store's driver is.
      const { openPostgresRequestLog } = await import('./postgres-request-log.js');
      const log = await openPostgresRequestLog({ url: store.url, maxAgeMs: options.write?.maxAgeMs ?? Infinity, maxBytes: options.write?.maxBytes ?? Infinity, log: options.log });
      return { sink: options.write ? log : undefined, source: log };
    }
    default: {
      const unknown: never = store;
      // Its type only: a store's other fields may hold a URL with a password.
      throw new Error(`unknown store type ${JSON.stringify((unknown as { type?: unknown }).type)}`);
    }
  }
}
