import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { GatewayConfig } from './config-types.js';
import { loadConfig } from './load-config.js';
import type { ConfigProtocol } from './parse-config.js';

/**
 * Watches the config file's folder (editors replace files rather than write them in place) and
 * reloads on change. An invalid edit is reported and the previous config stays in force.
 */
export function watchConfig(options: {
  path: string;
  explicit: boolean;
  /** The protocols provider types may name (default: the built-in ones). */
  protocols?: readonly ConfigProtocol[];
  onChange: (config: GatewayConfig) => void;
  onError: (error: unknown) => void;
}): { close(): void } {
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  const reload = () => {
    loadConfig({ path: options.path, explicit: options.explicit, protocols: options.protocols }).then(options.onChange, options.onError);
  };
  try {
    watcher = watch(dirname(options.path), { persistent: false }, (_event, file) => {
      if (file !== null && file !== basename(options.path)) return;
      // Editors write in several steps; settle before reading.
      clearTimeout(timer);
      timer = setTimeout(reload, 50);
    });
    watcher.on('error', options.onError);
  } catch {
    // The folder does not exist yet: nothing to watch, the defaults stay in force.
  }
  return {
    close() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
