import type { Usage } from '../../core/usage.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';

export interface OpenAIChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

const count = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** OpenAI `usage` → core. `prompt_tokens` includes cached tokens, `completion_tokens` reasoning. */
export function convertOpenAIChatUsage(usage: unknown): Usage {
  if (!isJsonObject(usage)) return { input: {}, output: {} };
  const promptDetails: JsonObject = isJsonObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completionDetails: JsonObject = isJsonObject(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  const inputTotal = count(usage.prompt_tokens);
  const cacheRead = count(promptDetails.cached_tokens);
  const cacheWrite = count(promptDetails.cache_write_tokens);
  const outputTotal = count(usage.completion_tokens);
  const reasoning = count(completionDetails.reasoning_tokens);
  return {
    input: {
      total: inputTotal,
      noCache: inputTotal === undefined ? undefined : inputTotal - (cacheRead ?? 0) - (cacheWrite ?? 0),
      cacheRead,
      cacheWrite,
    },
    output: {
      total: outputTotal,
      text: outputTotal === undefined ? undefined : outputTotal - (reasoning ?? 0),
      reasoning,
    },
    raw: usage,
  };
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
