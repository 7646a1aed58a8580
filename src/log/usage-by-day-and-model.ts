import type { RequestLogEntry } from './request-log.js';

/**
 * What one model cost on one UTC day: the inspector's usage chart is drawn from these. `model` is
 * the `provider/model` that answered, or the model asked when none did.
 */
export interface DayModelUsage {
  /** `2026-11-28` */
  day: string;
  model: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  /** Null when no request of the group has a known price. */
  cost_usd: number | null;
}

/** The entries summed per UTC day and model, of `user`'s entries only when one is given. */
export function sumUsageByDayAndModel(entries: readonly RequestLogEntry[], user?: string): DayModelUsage[] {
  const groups = new Map<string, DayModelUsage>();
  for (const entry of entries) {
    if (user !== undefined && entry.user !== user) continue;
    const day = entry.time.slice(0, 10);
    const model = entry.upstream ?? entry.model;
    const key = `${day} ${model}`;
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { day, model, requests: 0, input_tokens: 0, output_tokens: 0, cached_tokens: 0, cost_usd: null }));
    group.requests += 1;
    group.input_tokens += entry.input_tokens ?? 0;
    group.output_tokens += entry.output_tokens ?? 0;
    group.cached_tokens += entry.cached_tokens ?? 0;
    if (entry.cost_usd !== null) group.cost_usd = (group.cost_usd ?? 0) + entry.cost_usd;
  }
  return [...groups.values()];
}
