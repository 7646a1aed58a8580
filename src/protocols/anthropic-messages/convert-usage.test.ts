import { describe, expect, it } from 'vitest';
import type { Usage } from '../../core/usage.js';
import { convertAnthropicMessagesUsage, toAnthropicMessagesUsage } from './convert-usage.js';

describe('convertAnthropicMessagesUsage', () => {
  it.each<[string, Record<string, unknown>, Omit<Usage, 'raw'>]>([
    [
      'cache reads and writes: the input total is the sum of the three counters',
      { input_tokens: 3, cache_creation_input_tokens: 418, cache_read_input_tokens: 1111, output_tokens: 33, cache_creation: { ephemeral_5m_input_tokens: 418 } },
      { input: { total: 1532, noCache: 3, cacheRead: 1111, cacheWrite: 418 }, output: { total: 33 } },
    ],
    [
      'thinking tokens split the output',
      { input_tokens: 51, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1699, output_tokens_details: { thinking_tokens: 139 } },
      { input: { total: 51, noCache: 51, cacheRead: 0, cacheWrite: 0 }, output: { total: 1699, text: 1560, reasoning: 139 } },
    ],
    ['null cache counters (older responses) are unknown', { input_tokens: 10, cache_creation_input_tokens: null, cache_read_input_tokens: null, output_tokens: 5 }, { input: { total: 10, noCache: 10 }, output: { total: 5 } }],
    ['output only (an old message_delta)', { output_tokens: 221 }, { input: {}, output: { total: 221 } }],
  ])('%s', (_name, wire, expected) => {
    expect(convertAnthropicMessagesUsage(wire)).toEqual({ ...expected, raw: wire });
  });

  it('gives empty usage for anything that is not an object', () => {
    expect(convertAnthropicMessagesUsage(null)).toEqual({ input: {}, output: {} });
  });
});

describe('toAnthropicMessagesUsage', () => {
  it.each<[string, Usage, ReturnType<typeof toAnthropicMessagesUsage>]>([
    [
      'Anthropic counts go back as they came',
      { input: { total: 1532, noCache: 3, cacheRead: 1111, cacheWrite: 418 }, output: { total: 33 } },
      { input_tokens: 3, output_tokens: 33, cache_creation_input_tokens: 418, cache_read_input_tokens: 1111 },
    ],
    [
      'an OpenAI total includes the cache: input_tokens is what remains',
      { input: { total: 100, cacheRead: 30 }, output: { total: 12, text: 4, reasoning: 8 } },
      { input_tokens: 70, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 30, output_tokens_details: { thinking_tokens: 8 } },
    ],
    ['nothing reported is zero: the SDK types say number', { input: {}, output: {} }, { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }],
  ])('%s', (_name, usage, expected) => {
    expect(toAnthropicMessagesUsage(usage)).toEqual(expected);
  });
});
