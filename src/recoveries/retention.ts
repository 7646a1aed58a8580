import type { RecoverySummary } from './recovery-record.js';

/** Pruning on write (docs/recoveries.md, "Storage"): a count cap and an age cap. Pure: the clock comes in. */
export interface RetentionLimits {
  maxRecords: number;
  /** 0 or Infinity: no age limit. */
  maxAgeMs: number;
}

export const DEFAULT_MAX_RECORDS = 1000;
export const DEFAULT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export function selectRecordsToPrune(
  records: readonly RecoverySummary[],
  limits: RetentionLimits,
  nowMs: number,
): { kept: RecoverySummary[]; pruned: RecoverySummary[] } {
  const ageLimited = limits.maxAgeMs > 0 && Number.isFinite(limits.maxAgeMs);
  const oldestKeptSeconds = (nowMs - limits.maxAgeMs) / 1000;
  const pruned = new Set<RecoverySummary>(ageLimited ? records.filter((record) => record.created_at < oldestKeptSeconds) : []);
  const remaining = records.filter((record) => !pruned.has(record));
  const excess = remaining.length - Math.max(0, limits.maxRecords);
  if (excess > 0) {
    // Oldest first; Array.prototype.sort is stable, so equal times keep insertion order.
    const oldestFirst = [...remaining].sort((left, right) => left.created_at - right.created_at);
    for (const record of oldestFirst.slice(0, excess)) pruned.add(record);
  }
  return { kept: records.filter((record) => !pruned.has(record)), pruned: [...pruned] };
}
