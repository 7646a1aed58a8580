import type { GatewayConfig } from '../config/config-types.js';
import { ProtocolRegistry } from '../protocols/protocol-registry.js';
import { BUILT_IN_PROTOCOLS } from '../protocols/registry.js';
import { MemoryKeyPool, type KeyPool } from '../providers/key-pool.js';
import { createUpstreamClient, type UpstreamClient } from '../providers/upstream-client.js';
import { createInflightRegistry } from './inflight.js';
import { createModelCatalog, type CatalogModel } from './model-catalog.js';
import { MemoryProviderHealth } from './provider-health.js';
import type { GenerationObserver, TokenCountOutcome } from './generation-outcome.js';
import { createLogLineObserver } from './log-line-observer.js';
import { createRecoveryObserver } from './recovery-observer.js';
import { Resumer } from './resume-generation.js';
import type { RecoveryStore } from '../recoveries/recovery-store.js';
import type { RecoverySink } from './recovery-sink.js';
import { runGeneration, type GatewayLogger, type GenerationInput, type GenerationOutput } from './run-generation.js';

export interface Gateway {
  generate(input: GenerationInput): Promise<GenerationOutput>;
  listModels(): CatalogModel[];
  config(): GatewayConfig;
  /** Replaces the config (file watcher); requests in flight keep the one they started with. */
  updateConfig(config: GatewayConfig): void;
  readonly inflightCount: number;
  /** Tells the observers how a token-count request went (counts never go through `generate`). */
  counted(outcome: TokenCountOutcome): void;
  /** Gives requests in flight `graceMs`, stops and records the rest, closes upstream connections. */
  shutdown(graceMs: number): Promise<{ finished: number; stopped: number }>;
}

export function createGateway(options: {
  config: GatewayConfig;
  recoveries: RecoverySink;
  /** The store of the recovery records: with it, a retry is answered from its record (resume on retry). */
  recoveryStore?: RecoveryStore;
  logger: GatewayLogger;
  /** The protocols the config's providers speak (default: the built-in ones). */
  protocols?: ProtocolRegistry;
  /** Told how each generation went, after the log line and the recoveries. */
  observers?: readonly GenerationObserver[];
  upstream?: UpstreamClient;
  /** Which keys of a provider's pool requests use (default: this instance's, in memory; shared-key-pool.ts in team mode). */
  keys?: KeyPool;
  now?: () => number;
}): Gateway {
  let config = options.config;
  const now = options.now ?? Date.now;
  const upstream = options.upstream ?? createUpstreamClient();
  const protocols = options.protocols ?? new ProtocolRegistry(BUILT_IN_PROTOCOLS);
  const inflight = createInflightRegistry();
  const catalog = createModelCatalog({
    upstream,
    protocols,
    now,
    onError: (provider, error) => options.logger.warn(`could not list the models of provider '${provider}': ${(error as Error).message ?? String(error)}`),
  });
  catalog.refresh(config);
  const resumer = options.recoveryStore && new Resumer(options.recoveryStore, (message) => options.logger.warn(message));
  void resumer?.load(now(), config.recoveries.resumeWindowMs);
  const observers = [createLogLineObserver(options.logger), createRecoveryObserver(options.recoveries, resumer, now), ...(options.observers ?? [])];
  const deps = { getConfig: () => config, protocols, upstream, catalog, inflight, observers, resumer, keys: options.keys ?? new MemoryKeyPool(), health: new MemoryProviderHealth(), logger: options.logger, now };
  return {
    generate: (input) => runGeneration(deps, input),
    listModels() {
      catalog.refresh(config);
      return catalog.list(config);
    },
    config: () => config,
    updateConfig(next) {
      config = next;
      catalog.refresh(config);
    },
    get inflightCount() {
      return inflight.size;
    },
    counted(outcome) {
      for (const observer of observers) {
        try {
          observer.counted?.(outcome);
        } catch (error) {
          options.logger.error(`an observer failed on ${outcome.requestId}: ${String(error)}`);
        }
      }
    },
    async shutdown(graceMs) {
      const result = await inflight.drain(graceMs);
      await upstream.close();
      return result;
    },
  };
}
