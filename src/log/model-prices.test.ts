import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/parse-config.js';
import { createUsageFromTotals } from '../core/usage.js';
import { loadPriceDataset, ModelPrices, priceDatasetLoaded } from './model-prices.js';

const usage = createUsageFromTotals({ input: 1_000_000, cacheRead: 200_000, output: 100_000 });

describe('prices', () => {
  const config = parseConfig(
    {
      providers: { anthropic: { preset: 'anthropic', apiKey: 'k' }, local: { type: 'openai-chat', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' } },
      prices: { 'local/big': { input: 1, output: 2 }, 'local/small-*': { input: 0.5, output: 1, cacheRead: 0.1 } },
    },
    {},
  );
  const prices = new ModelPrices(config);
  const provider = (id: string) => config.providers.find((entry) => entry.id === id);

  it('come from the shipped price list, offline, found by the provider\'s URL, once it is loaded', async () => {
    // Not loaded at start (it holds about 16 MB): unknown until the first request loads it.
    expect(priceDatasetLoaded()).toBe(false);
    await loadPriceDataset();
    // claude-3-5-haiku: $0.80 input, $0.08 cache read, $4 output per million (genai-prices).
    const cost = prices.costOf(provider('anthropic'), 'anthropic', 'claude-3-5-haiku-latest', usage);
    expect(cost).toBeCloseTo((800_000 * 0.8 + 200_000 * 0.08 + 100_000 * 4) / 1e6, 9);
  });

  it('from the config first, exact or by glob; cache reads at the input price unless given', () => {
    expect(prices.costOf(provider('local'), 'local', 'big', usage)).toBeCloseTo((1_000_000 * 1 + 100_000 * 2) / 1e6, 9);
    expect(prices.costOf(provider('local'), 'local', 'small-1', usage)).toBeCloseTo((800_000 * 0.5 + 200_000 * 0.1 + 100_000 * 1) / 1e6, 9);
  });

  it('none for an unknown model; 0 for the mock models', () => {
    expect(prices.costOf(provider('local'), 'local', 'llama3', usage)).toBeNull();
    expect(prices.costOf(provider('mock'), 'mock', 'mock-echo', usage)).toBe(0);
  });
});
