import type { DayModelUsage } from '../../log/usage-by-day-and-model.js';

interface UsageTotals {
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  /** Null when no request of the group has a known price. */
  cost_usd: number | null;
}

export interface UsageByDay {
  days: number;
  /** Oldest first, one per UTC day, days without requests included. */
  by_day: (UsageTotals & { day: string; models: Record<string, { input_tokens: number; output_tokens: number; cost_usd: number | null }> })[];
  /** Most tokens first: `provider/model` that answered, or the model asked when none did. */
  by_model: (UsageTotals & { model: string })[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The chart's data: tokens and cost per day and per model over the last `days` days, from the log's sums per day and model. */
export function summarizeUsageByDay(groups: readonly DayModelUsage[], days: number, now: number): UsageByDay {
  const firstDay = Math.floor(now / DAY_MS) - days + 1;
  const byDay = new Map<string, UsageByDay['by_day'][number]>();
  for (let day = firstDay; day < firstDay + days; day += 1) {
    const name = new Date(day * DAY_MS).toISOString().slice(0, 10);
    byDay.set(name, Object.assign({ day: name, models: {} }, emptyTotals()));
  }
  const byModel = new Map<string, UsageByDay['by_model'][number]>();
  for (const group of groups) {
    const day = byDay.get(group.day);
    if (day === undefined) continue;
    add(day, group);
    let perModel = byModel.get(group.model);
    if (perModel === undefined) byModel.set(group.model, (perModel = Object.assign({ model: group.model }, emptyTotals())));
    add(perModel, group);
    const cell = (day.models[group.model] ??= { input_tokens: 0, output_tokens: 0, cost_usd: null });
    cell.input_tokens += group.input_tokens;
    cell.output_tokens += group.output_tokens;
    if (group.cost_usd !== null) cell.cost_usd = (cell.cost_usd ?? 0) + group.cost_usd;
  }
  const models = [...byModel.values()].sort((a, b) => b.input_tokens + b.output_tokens - (a.input_tokens + a.output_tokens));
  return { days, by_day: [...byDay.values()], by_model: models };
}

function emptyTotals(): UsageTotals {
  return { requests: 0, input_tokens: 0, output_tokens: 0, cached_tokens: 0, cost_usd: null };
}

function add(totals: UsageTotals, group: DayModelUsage): void {
  totals.requests += group.requests;
  totals.input_tokens += group.input_tokens;
  totals.output_tokens += group.output_tokens;
  totals.cached_tokens += group.cached_tokens;
  if (group.cost_usd !== null) totals.cost_usd = (totals.cost_usd ?? 0) + group.cost_usd;
}
