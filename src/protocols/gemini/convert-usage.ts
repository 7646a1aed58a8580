import type { Usage } from '../../core/usage.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';

const count = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const sum = (left: number | undefined, right: number | undefined): number | undefined =>
  left === undefined && right === undefined ? undefined : (left ?? 0) + (right ?? 0);

/**
 * Gemini `usageMetadata` → core (docs/protocols.md §4.4, §7.6):
 * `promptTokenCount` includes cached tokens, and tokens of server-side tools
 * (`toolUsePromptTokenCount`) are input too; `candidatesTokenCount` excludes thoughts, so output
 * is candidates + thoughts.
 */
export function convertGeminiUsage(usage: unknown): Usage {
  if (!isJsonObject(usage)) return { input: {}, output: {} };
  const inputTotal = sum(count(usage.promptTokenCount), count(usage.toolUsePromptTokenCount));
  const cacheRead = count(usage.cachedContentTokenCount);
  const reasoning = count(usage.thoughtsTokenCount);
  const outputTotal = sum(count(usage.candidatesTokenCount), reasoning);
  return {
    input: {
      total: inputTotal,
      noCache: inputTotal === undefined ? undefined : inputTotal - (cacheRead ?? 0),
      cacheRead,
    },
    output: {
      total: outputTotal,
      text: outputTotal === undefined ? undefined : outputTotal - (reasoning ?? 0),
      reasoning,
    },
    raw: usage,
  };
}

/**
 * Core → Gemini `usageMetadata`. Counts the upstream did not report are left out, as Gemini does
 * (a candidate blocked for safety has no `candidatesTokenCount`); thoughts and cache reads only
 * when counted.
 */
export function toGeminiUsage(usage: Usage): JsonObject {
  const thoughtsTokens = usage.output.reasoning ?? 0;
  const wire: JsonObject = {};
  if (usage.input.total !== undefined) wire.promptTokenCount = usage.input.total;
  if (usage.output.total !== undefined) wire.candidatesTokenCount = usage.output.total - thoughtsTokens;
  wire.totalTokenCount = (usage.input.total ?? 0) + (usage.output.total ?? 0);
  if (thoughtsTokens > 0) wire.thoughtsTokenCount = thoughtsTokens;
  if (usage.input.cacheRead) wire.cachedContentTokenCount = usage.input.cacheRead;
  return wire;
}

/** Whether a usage holds any count (an empty one is not worth a `usageMetadata`). */
export function hasUsageCounts(usage: Usage): boolean {
  return usage.input.total !== undefined || usage.output.total !== undefined;
}
