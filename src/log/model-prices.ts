import type { ModelPrice, TieredPrices } from '@pydantic/genai-prices';
import type { GatewayConfig, ModelPriceConfig, ProviderConfig } from '../config/config-types.js';
import type { Usage } from '../core/usage.js';

/**
 * The shipped price list, loaded when the first request needs a price, not at start: it holds
 * about 16 MB of memory. `loadPriceDataset` starts the load (once); until it is done no price is
 * known, and `priceDatasetLoaded` says so.
 */
let dataset: typeof import('@pydantic/genai-prices') | undefined;
let loading: Promise<void> | undefined;

export function loadPriceDataset(): Promise<void> {
  loading ??= import('@pydantic/genai-prices').then((module) => {
    dataset = module;
  });
  return loading;
}

export function priceDatasetLoaded(): boolean {
  return dataset !== undefined;
}

/** USD per million tokens; a tiered price is chosen by the request's input tokens. */
interface ResolvedPrice {
  input: number | TieredPrices;
  output: number | TieredPrices;
  cacheRead: number | TieredPrices | undefined;
  cacheWrite: number | TieredPrices | undefined;
}

/** 0 for the mock models, none when no price is known. */
type PriceLookup = ResolvedPrice | 0 | undefined;

/**
 * What requests cost, from the config's `prices` first, then the price list shipped in
 * `@pydantic/genai-prices` (offline: the list is in the package, and it is never updated from the
 * network). A model's price is looked up once per config and kept.
 */
export class ModelPrices {
  #config: GatewayConfig;
  #found = new Map<string, PriceLookup>();

  constructor(config: GatewayConfig) {
    this.#config = config;
  }

  /** The cost of `usage` on `provider`/`model` in USD; null when no price is known or nothing was counted. */
  costOf(provider: ProviderConfig | undefined, providerId: string, model: string, usage: Usage): number | null {
    const key = `${providerId}/${model}`;
    let price = this.#found.get(key);
    if (!this.#found.has(key)) {
      price = this.#lookUp(provider, providerId, model, key);
      // Not kept while the list is still loading: the next request looks it up again.
      if (price !== undefined || dataset) this.#found.set(key, price);
    }
    if (price === 0) return 0;
    if (price === undefined) return null;
    const input = usage.input.total;
    const output = usage.output.total;
    if (input === undefined && output === undefined) return null;
    const cacheRead = usage.input.cacheRead ?? 0;
    const cacheWrite = usage.input.cacheWrite ?? 0;
    const inputTotal = input ?? 0;
    const noCache = usage.input.noCache ?? Math.max(0, inputTotal - cacheRead - cacheWrite);
    const at = (value: number | TieredPrices | undefined, fallback: number | TieredPrices) => tierPrice(value ?? fallback, inputTotal);
    const cost = noCache * at(price.input, price.input) + cacheRead * at(price.cacheRead, price.input) + cacheWrite * at(price.cacheWrite, price.input) + (output ?? 0) * at(price.output, price.output);
    // To a billionth of a dollar: a sum of many entries must not show float noise.
    return Math.round(cost * 1e3) / 1e9;
  }

  #lookUp(provider: ProviderConfig | undefined, providerId: string, model: string, key: string): PriceLookup {
    if (provider?.type === 'mock') return 0;
    const override = findOverride(this.#config.prices, key);
    if (override) return { input: override.input, output: override.output, cacheRead: override.cacheRead, cacheWrite: override.cacheWrite };
    if (!dataset) {
      void loadPriceDataset();
      return undefined;
    }
    const known =
      (provider?.baseURL && dataset.findProvider({ providerApiUrl: provider.baseURL })) || dataset.findProvider({ providerId });
    if (!known) return undefined;
    const result = dataset.calcPrice({ input_tokens: 1, output_tokens: 1 }, model, { provider: known });
    if (!result) return undefined;
    return fromModelPrice(result.model_price);
  }
}

function fromModelPrice(price: ModelPrice): ResolvedPrice | undefined {
  const input = price.input_mtok;
  const output = price.output_mtok;
  if (input === undefined || output === undefined) return undefined;
  return { input, output, cacheRead: price.cache_read_mtok, cacheWrite: price.cache_write_mtok };
}

function tierPrice(price: number | TieredPrices, inputTokens: number): number {
  if (typeof price === 'number') return price;
  let chosen = price.base;
  for (const tier of price.tiers) if (inputTokens > tier.start) chosen = tier.price;
  return chosen;
}

/** An exact `provider/model` first, then the first glob (`*` for any run of characters) that matches. */
function findOverride(prices: Record<string, ModelPriceConfig>, key: string): ModelPriceConfig | undefined {
  if (Object.hasOwn(prices, key)) return prices[key];
  for (const [pattern, price] of Object.entries(prices)) {
    if (!pattern.includes('*')) continue;
    const expression = new RegExp(`^${pattern.split('*').map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    if (expression.test(key)) return price;
  }
  return undefined;
}
