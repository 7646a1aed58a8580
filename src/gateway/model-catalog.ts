import type { GatewayConfig, ProviderConfig } from '../config/config-types.js';
import type { ProtocolRegistry } from '../protocols/protocol-registry.js';
import { isJsonObject } from '../protocols/read-fields.js';
import type { UpstreamClient } from '../providers/upstream-client.js';
import { MOCK_MODEL_IDS } from '../providers/mock/mock-models.js';

export interface CatalogModel {
  id: string;
  ownedBy: string;
  created: number;
  provider: ProviderConfig;
}

export interface ModelCatalog {
  /** The models a provider serves: configured, built in (mock) and discovered upstream. */
  modelsOf(provider: ProviderConfig): readonly string[];
  /** The union over all providers; a name two providers share is listed again as provider/model. */
  list(config: GatewayConfig): CatalogModel[];
  /** Starts a background refresh of upstream model lists; requests never wait for it. */
  refresh(config: GatewayConfig): void;
}

const REFRESH_INTERVAL_MS = 10 * 60 * 1000;

/** The provider of an alias's first target that one serves, following aliases it names. */
function firstProvider(targets: readonly string[], config: GatewayConfig, modelsOf: (provider: ProviderConfig) => readonly string[], depth = 0): ProviderConfig | undefined {
  for (const target of targets) {
    if (Object.hasOwn(config.aliases, target) && depth < 8) {
      const provider = firstProvider(config.aliases[target], config, modelsOf, depth + 1);
      if (provider) return provider;
      continue;
    }
    const slash = target.indexOf('/');
    const provider = (slash > 0 && config.providers.find((entry) => entry.id === target.slice(0, slash))) || config.providers.find((entry) => modelsOf(entry).includes(target));
    if (provider) return provider;
  }
  return undefined;
}

export function createModelCatalog(options: { upstream: UpstreamClient; protocols: ProtocolRegistry; now: () => number; onError?: (provider: string, error: unknown) => void }): ModelCatalog {
  const discovered = new Map<string, { models: string[]; fetchedAt: number; created: number }>();
  const inFlight = new Set<string>();

  // Routing asks on every request: the merged list is built once per provider config and
  // discovery, not per call.
  const merged = new WeakMap<ProviderConfig, { source: readonly string[] | undefined; models: readonly string[] }>();
  const modelsOf = (provider: ProviderConfig): readonly string[] => {
    const source = provider.type === 'mock' ? (provider.mock ? MOCK_MODEL_IDS : undefined) : discovered.get(provider.id)?.models;
    const cached = merged.get(provider);
    if (cached && cached.source === source) return cached.models;
    const models = source ? [...new Set(provider.type === 'mock' ? [...source, ...provider.models] : [...provider.models, ...source])] : provider.models;
    merged.set(provider, { source, models });
    return models;
  };

  const discover = async (provider: ProviderConfig): Promise<void> => {
    if (provider.type === 'mock') return;
    const protocol = options.protocols.get(provider.type);
    const response = await options.upstream.send({
      baseURL: provider.baseURL,
      path: protocol.upstreamModelsPath,
      method: 'GET',
      headers: Object.assign(protocol.upstreamAuthHeaders(provider.apiKey), provider.headers),
      timeoutMs: 15_000,
    });
    const text = await response.body.text();
    if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
    const body: unknown = JSON.parse(text);
    const list = isJsonObject(body) ? (Array.isArray(body.data) ? body.data : Array.isArray(body.models) ? body.models : []) : [];
    const ids = list
      .filter(isJsonObject)
      .map((entry) => (typeof entry.id === 'string' ? entry.id : typeof entry.name === 'string' ? entry.name.replace(/^models\//, '') : undefined))
      .filter((id): id is string => Boolean(id));
    const nowSeconds = Math.floor(options.now() / 1000);
    discovered.set(provider.id, { models: ids, fetchedAt: options.now(), created: nowSeconds });
  };

  return {
    modelsOf,
    list(config) {
      const seen = new Set<string>();
      const models: CatalogModel[] = [];
      const created = Math.floor(options.now() / 1000);
      for (const provider of config.providers) {
        for (const model of modelsOf(provider)) {
          const id = seen.has(model) ? `${provider.id}/${model}` : model;
          seen.add(model);
          models.push({ id, ownedBy: provider.id, created: discovered.get(provider.id)?.created ?? created, provider });
        }
      }
      // Aliases are models to a client (a fallback chain is one name); globs are not names.
      for (const [alias, targets] of Object.entries(config.aliases)) {
        if (seen.has(alias) || alias.includes('*') || alias.includes('?')) continue;
        const provider = firstProvider(targets, config, modelsOf);
        if (provider === undefined) continue;
        seen.add(alias);
        models.push({ id: alias, ownedBy: provider.id, created, provider });
      }
      return models;
    },
    refresh(config) {
      for (const provider of config.providers) {
        // A provider that forwards each client's key has none of its own to list models with.
        if (provider.type === 'mock' || !provider.discoverModels || inFlight.has(provider.id) || (provider.forwardClientKey && !provider.apiKey)) continue;
        const entry = discovered.get(provider.id);
        if (entry && options.now() - entry.fetchedAt < REFRESH_INTERVAL_MS) continue;
        inFlight.add(provider.id);
        discover(provider)
          .catch((error: unknown) => {
            // Remember the failure too, so a dead upstream is not asked on every request.
            discovered.set(provider.id, { models: discovered.get(provider.id)?.models ?? [], fetchedAt: options.now(), created: Math.floor(options.now() / 1000) });
            options.onError?.(provider.id, error);
          })
          .finally(() => inFlight.delete(provider.id));
      }
    },
  };
}
