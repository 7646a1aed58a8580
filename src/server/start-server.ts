import { toNodeHandler } from 'h3/node';
import { listen } from 'listhen';
import type { GatewayConfig } from '../config/config-types.js';
import { watchConfig } from '../config/watch-config.js';
import { createGateway, type Gateway } from '../gateway/create-gateway.js';
import type { GenerationObserver } from '../gateway/generation-outcome.js';
import type { RecoverySink } from '../gateway/recovery-sink.js';
import { createStoreRecoverySink } from '../gateway/store-recovery-sink.js';
import type { RecoveryStore } from '../recoveries/recovery-store.js';
import type { KeyPool } from '../providers/key-pool.js';
import type { GatewayLogger } from '../gateway/run-generation.js';
import type { ProtocolDescriptor } from '../protocols/protocol-descriptor.js';
import { ProtocolRegistry } from '../protocols/protocol-registry.js';
import { BUILT_IN_PROTOCOLS } from '../protocols/registry.js';
import { RequestLogObserver } from '../log/request-log-observer.js';
import type { RequestLogSink, RequestLogSource } from '../log/request-log-store.js';
import { createApp } from './create-app.js';
import { InspectorObserver } from './inspector/inspector-observer.js';
import { GatewayStatus } from './status-route.js';

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  /** Whether the requested port was taken and another one was chosen. */
  portChanged: boolean;
  gateway: Gateway;
  /** Where the request log is written, when the server keeps one. */
  requestLog: RequestLogSink | undefined;
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
  /** The protocols served and called (default: the built-in ones, `protocols/registry.ts`). */
  protocols?: readonly ProtocolDescriptor[];
  /** Told how each generation went, besides the log line and the recoveries. */
  observers?: readonly GenerationObserver[];
  /**
   * Keep the request log where `sink` writes and `source` reads (the store the caller opened with
   * openConfiguredRequestLog). The server closes it. `bodies` keeps the bodies whatever
   * `log.bodies` says.
   */
  requestLog?: { sink: RequestLogSink; source: RequestLogSource; bodies?: boolean };
  /** Which keys of a provider's pool requests use (default: in memory); its owner closes it. */
  keys?: KeyPool;
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const protocols = new ProtocolRegistry(options.protocols ?? BUILT_IN_PROTOCOLS);
  checkProviderTypes(options.config, protocols);
  const recoveries = options.recoveries ?? createStoreRecoverySink(options.recoveryStore);
  const status = new GatewayStatus();
  const requestLog = options.requestLog && createRequestLog(options.requestLog, () => gateway.config());
  // The inspector's size is read at start; a reload does not change it.
  const inspector = options.config.inspector.keep > 0 ? new InspectorObserver(options.config.inspector.keep, () => gateway.config(), options.config.inspector.bodyMaxMb) : undefined;
  const gateway = createGateway({ config: options.config, recoveries, recoveryStore: options.recoveryStore, keys: options.keys, logger: options.logger, protocols, observers: [status, ...(requestLog ? [requestLog.observer] : []), ...(inspector ? [inspector] : []), ...(options.observers ?? [])] });
  const app = createApp({ gateway, logger: options.logger, protocols, recoveryStore: options.recoveryStore, status, inspector, requestLog: requestLog?.source });
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
  if (!LOOPBACK_HOSTS.has(host) && options.config.keys.length === 0) {
    options.logger.warn(`serving on ${host}, reachable from other machines, with no keys configured: anyone who can reach it can spend your upstream keys and read every request on /ui. Add "keys" to the config.`);
  }
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const watcher = options.watch
    ? watchConfig({
        path: options.watch.path,
        explicit: options.watch.explicit,
        protocols: protocols.descriptors,
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
    requestLog: requestLog?.sink,
    close(graceMs = options.config.server.shutdownGraceMs) {
      closing ??= (async () => {
        watcher?.close();
        // Stop accepting first; streams in flight keep their connections until drained.
        listener.server.close();
        // An open inspector page's feed would hold the close open for as long as the page stays.
        inspector?.close();
        const result = await gateway.shutdown(graceMs);
        await requestLog?.sink.close();
        await requestLog?.source.close();
        await listener.close();
        await options.recoveryStore.close();
        return result;
      })();
      return closing;
    },
  };
}

function createRequestLog(options: NonNullable<StartServerOptions['requestLog']>, getConfig: () => GatewayConfig) {
  return { sink: options.sink, source: options.source, observer: new RequestLogObserver({ writer: options.sink, getConfig, bodies: options.bodies }) };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

/** A config parsed for other protocols than the server's cannot route to them. */
function checkProviderTypes(config: GatewayConfig, protocols: ProtocolRegistry): void {
  for (const provider of config.providers) {
    if (provider.type !== 'mock' && protocols.find(provider.type) === undefined) {
      throw new Error(`providers.${provider.id}.type: no protocol '${provider.type}' is served (known: ${protocols.descriptors.map((protocol) => protocol.id).join(', ')}).`);
    }
  }
}
