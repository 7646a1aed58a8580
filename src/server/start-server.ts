import type { H3 } from 'h3';
import { toNodeHandler } from 'h3/node';
import { listen } from 'listhen';
import type { GatewayConfig } from '../config/config-types.js';
import { watchConfig } from '../config/watch-config.js';
import { createGateway, type Gateway } from '../gateway/create-gateway.js';
import type { RecoverySink } from '../gateway/recovery-sink.js';
import { createStoreRecoverySink } from '../gateway/store-recovery-sink.js';
import type { RecoveryStore } from '../recoveries/recovery-store.js';
import type { GatewayLogger } from '../gateway/run-generation.js';
import { createApp } from './create-app.js';
import { registerRecoveriesRoutes } from './recoveries-routes.js';

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  /** Whether the requested port was taken and another one was chosen. */
  portChanged: boolean;
  gateway: Gateway;
  /** Stops accepting, gives requests in flight `graceMs` (default: the config's), records the rest. */
  close(graceMs?: number): Promise<{ finished: number; stopped: number }>;
}

export interface StartServerOptions {
  config: GatewayConfig;
  logger: GatewayLogger;
  /** Where interrupted generations are kept, and what the recoveries API serves. */
  recoveryStore: RecoveryStore;
  /** Replaces the store as the destination of interrupted generations (tests). */
  recoveries?: RecoverySink;
  /** Overrides config.server.host/port (CLI flags); port 0 picks a free port. */
  host?: string;
  port?: number;
  /** Reload the config when this file changes. */
  watch?: { path: string; explicit: boolean };
  register?: (app: H3, gateway: Gateway) => void;
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const recoveries = options.recoveries ?? createStoreRecoverySink(options.recoveryStore);
  const gateway = createGateway({ config: options.config, recoveries, logger: options.logger });
  const app = createApp({
    gateway,
    logger: options.logger,
    register: (h3, authenticate) => {
      registerRecoveriesRoutes(h3, gateway, options.recoveryStore, authenticate);
      options.register?.(h3, gateway);
    },
  });
  const host = options.host ?? options.config.server.host;
  const requestedPort = options.port ?? options.config.server.port;
  const listener = await listen(toNodeHandler(app), {
    hostname: host,
    // A taken port falls back to the next free one (then any free port).
    port: { port: requestedPort, verbose: false, random: true, ...(requestedPort > 0 && { alternativePortRange: [requestedPort + 1, requestedPort + 20] }) },
    public: !['127.0.0.1', 'localhost', '::1'].includes(host),
    showURL: false,
    autoClose: false,
    qr: false,
  });
  const port = listener.address.port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const watcher = options.watch
    ? watchConfig({
        path: options.watch.path,
        explicit: options.watch.explicit,
        onChange: (config) => {
          gateway.updateConfig(config);
          options.logger.info(`config reloaded from ${options.watch!.path}`);
        },
        onError: (error) => options.logger.error(`config not reloaded, the previous one stays in force: ${(error as Error).message ?? String(error)}`),
      })
    : undefined;

  let closing: Promise<{ finished: number; stopped: number }> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    portChanged: requestedPort !== 0 && port !== requestedPort,
    gateway,
    close(graceMs = options.config.server.shutdownGraceMs) {
      closing ??= (async () => {
        watcher?.close();
        // Stop accepting first; streams in flight keep their connections until drained.
        listener.server.close();
        const result = await gateway.shutdown(graceMs);
        await listener.close();
        await options.recoveryStore.close();
        return result;
      })();
      return closing;
    },
  };
}
