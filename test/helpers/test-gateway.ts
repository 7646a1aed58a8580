import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../src/config/parse-config.js';
import type { GenerationObserver } from '../../src/gateway/generation-outcome.js';
import type { InterruptedGeneration, RecoverySink } from '../../src/gateway/recovery-sink.js';
import { createStoreRecoverySink } from '../../src/gateway/store-recovery-sink.js';
import { openRecoveryStore, type FileRecoveryStore } from '../../src/recoveries/recovery-store.js';
import type { RequestLogSink, RequestLogSource } from '../../src/log/request-log-store.js';
import { openConfiguredRequestLog } from '../../src/store/open-configured-request-log.js';
import type { GatewayConfig } from '../../src/config/config-types.js';
import { createLogger } from '../../src/server/create-logger.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';

export interface TestGateway {
  url: string;
  server: RunningServer;
  store: FileRecoveryStore;
  /** Interrupted generations, as handed to the store (in order). */
  interrupted: InterruptedGeneration[];
  /** Settles when the next interrupted generation has been stored (a drain's, once completed). */
  nextRecord(): Promise<InterruptedGeneration>;
  /** Settles when the next drain's record has been opened (state "draining"), as the gateway handed it over. */
  nextDraining(): Promise<InterruptedGeneration>;
  logs: string[];
  /** Where the server keeps its request log, unless `requestLog` names another store. */
  logDirectory: string;
  close(): Promise<void>;
}

/**
 * The real server on a random port of 127.0.0.1, configured from raw config JSON with an empty
 * environment (no provider is created from the machine's variables), with a recoveries store in a
 * fresh temporary folder.
 */
export async function startTestGateway(
  rawConfig: Record<string, unknown> = {},
  options: { observers?: GenerationObserver[]; logBodies?: boolean; requestLog?: { sink: RequestLogSink; source: RequestLogSource } } = {},
): Promise<TestGateway> {
  const config = parseConfig(rawConfig, {});
  const home = mkdtempSync(join(tmpdir(), 'switchyard-test-'));
  const store = await openRecoveryStore({ directory: join(home, 'recoveries') });
  const interrupted: InterruptedGeneration[] = [];
  const waiters: Array<(generation: InterruptedGeneration) => void> = [];
  const drainingWaiters: Array<(generation: InterruptedGeneration) => void> = [];
  const storeSink = createStoreRecoverySink(store);
  const stored = (generation: InterruptedGeneration): void => {
    interrupted.push(generation);
    waiters.shift()?.(generation);
  };
  const recoveries: RecoverySink = {
    async save(generation) {
      await storeSink.save(generation);
      stored(generation);
    },
    open(generation, snapshot) {
      const draining = storeSink.open(generation, snapshot);
      drainingWaiters.shift()?.(generation);
      return {
        async complete(final) {
          await draining.complete(final);
          stored(final);
        },
      };
    },
  };
  const logs: string[] = [];
  const server = await startServer({ config, logger: createLogger({ write: (line) => logs.push(line) }), recoveryStore: store, recoveries, host: '127.0.0.1', port: 0, observers: options.observers, requestLog: Object.assign({}, options.requestLog ?? (await filesRequestLog(home, config)), { bodies: options.logBodies }) });
  return {
    url: server.url,
    server,
    store,
    interrupted,
    nextRecord: () => new Promise((resolve) => waiters.push(resolve)),
    nextDraining: () => new Promise((resolve) => drainingWaiters.push(resolve)),
    logs,
    logDirectory: join(home, 'log'),
    close: async () => {
      await server.close(1000);
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** The request log's files under `home`, as `serve` keeps them with the default store. */
export async function filesRequestLog(home: string, config: GatewayConfig): Promise<{ sink: RequestLogSink; source: RequestLogSource }> {
  const opened = await openConfiguredRequestLog({ type: 'files' }, home, { write: { maxAgeMs: config.log.maxAgeMs, maxBytes: config.log.maxBytes }, log: () => undefined });
  return { sink: opened.sink!, source: opened.source };
}
