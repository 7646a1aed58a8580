import type { Usage } from '../../core/usage.js';
import { isJsonObject } from '../read-fields.js';

export interface AnthropicMessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens_details?: { thinking_tokens: number };
}

const count = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/**
 * Anthropic `usage` → core (docs/protocols.md §7.6). `input_tokens` excludes the cache, so the total is
 * the sum of the three input counters; `output_tokens` includes thinking.
 */
export function convertAnthropicMessagesUsage(usage: unknown): Usage {
  if (!isJsonObject(usage)) return { input: {}, output: {} };
  const noCache = count(usage.input_tokens);
  const cacheWrite = count(usage.cache_creation_input_tokens);
  const cacheRead = count(usage.cache_read_input_tokens);
  const outputTotal = count(usage.output_tokens);
  const reasoning = isJsonObject(usage.output_tokens_details) ? count(usage.output_tokens_details.thinking_tokens) : undefined;
  const anyInput = noCache !== undefined || cacheWrite !== undefined || cacheRead !== undefined;
  return {
    input: {
      total: anyInput ? (noCache ?? 0) + (cacheWrite ?? 0) + (cacheRead ?? 0) : undefined,
      noCache,
      cacheRead,
      cacheWrite,
    },
    output: {
      total: outputTotal,
      // Without `output_tokens_details` (older servers) the split of the output is unknown.
      text: outputTotal !== undefined && reasoning !== undefined ? outputTotal - reasoning : undefined,
      reasoning,
    },
    raw: usage,
  };
}

/** Core → Anthropic `usage`. Counts the upstream did not report become 0: the SDK types say number. */
export function toAnthropicMessagesUsage(usage: Usage): AnthropicMessagesUsage {
  const cacheRead = usage.input.cacheRead ?? 0;
  const cacheWrite = usage.input.cacheWrite ?? 0;
  const wire: AnthropicMessagesUsage = {
    input_tokens: usage.input.noCache ?? Math.max(0, (usage.input.total ?? 0) - cacheRead - cacheWrite),
    output_tokens: usage.output.total ?? 0,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  };
  if (usage.output.reasoning !== undefined) wire.output_tokens_details = { thinking_tokens: usage.output.reasoning };
  return wire;
}
