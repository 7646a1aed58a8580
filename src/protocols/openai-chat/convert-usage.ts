import type { CompletionUsage } from 'openai/resources/completions';
import { createUsageFromTotals, readCount, type Usage } from '../../core/usage.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';

/** The SDK's own `CompletionUsage` (a type-only import, erased from the build). */
export type OpenAIChatUsage = CompletionUsage;

/** `usage` → core. Input includes cached tokens, output includes reasoning tokens. */
export function convertOpenAIChatUsage(usage: unknown): Usage {
  if (!isJsonObject(usage)) return { input: {}, output: {} };
  const inputDetails: JsonObject = isJsonObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const outputDetails: JsonObject = isJsonObject(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  return createUsageFromTotals({
    input: readCount(usage.prompt_tokens),
    cacheRead: readCount(inputDetails.cached_tokens),
    cacheWrite: readCount(inputDetails.cache_write_tokens),
    output: readCount(usage.completion_tokens),
    reasoning: readCount(outputDetails.reasoning_tokens),
    raw: usage,
  });
}

/** Core → OpenAI `usage`. */
export function toOpenAIChatUsage(usage: Usage): OpenAIChatUsage {
  const promptTokens = usage.input.total ?? 0;
  const completionTokens = usage.output.total ?? 0;
  const wire: OpenAIChatUsage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: usage.input.cacheRead ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.output.reasoning ?? 0 },
  };
  if (usage.input.cacheWrite) wire.prompt_tokens_details!.cache_write_tokens = usage.input.cacheWrite;
  return wire;
}
