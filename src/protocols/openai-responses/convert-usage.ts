import type { ResponseUsage } from 'openai/resources/responses/responses';
import { createUsageFromTotals, readCount, type Usage } from '../../core/usage.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';

/**
 * `ResponseUsage` (docs/protocols.md §3.3): input includes cached tokens, output includes reasoning.
 * The SDK's own type (a type-only import, erased from the build), so a field it requires cannot go missing.
 */
export type OpenAIResponsesUsage = ResponseUsage;

/** `usage` → core. Input includes cached tokens, output includes reasoning tokens. */
export function convertOpenAIResponsesUsage(usage: unknown): Usage {
  if (!isJsonObject(usage)) return { input: {}, output: {} };
  const inputDetails: JsonObject = isJsonObject(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const outputDetails: JsonObject = isJsonObject(usage.output_tokens_details) ? usage.output_tokens_details : {};
  return createUsageFromTotals({
    input: readCount(usage.input_tokens),
    cacheRead: readCount(inputDetails.cached_tokens),
    cacheWrite: readCount(inputDetails.cache_write_tokens),
    output: readCount(usage.output_tokens),
    reasoning: readCount(outputDetails.reasoning_tokens),
    raw: usage,
  });
}

/**
 * Core → Responses `usage`; counts the upstream did not report are 0: the SDKs type every one,
 * `cache_write_tokens` included, as a required number, and openai-python rejects a usage without it.
 */
export function toOpenAIResponsesUsage(usage: Usage): OpenAIResponsesUsage {
  const inputTokens = usage.input.total ?? 0;
  const outputTokens = usage.output.total ?? 0;
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: usage.input.cacheRead ?? 0, cache_write_tokens: usage.input.cacheWrite ?? 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: usage.output.reasoning ?? 0 },
    total_tokens: inputTokens + outputTokens,
  };
}
