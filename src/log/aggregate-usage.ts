import type { RequestLogEntry } from './request-log.js';

export type UsageGrouping = 'model' | 'provider' | 'user' | 'protocol' | 'day';

export interface UsageRow {
  key: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  /** Null when a request of the group used a model with no known price. */
  cost_usd: number | null;
}

export interface UsageReport {
  rows: UsageRow[];
  /** Its cost is the sum of the groups whose price is known (null when none is). */
  total: UsageRow;
  /** Whether some group has no known price: the total's cost leaves it out. */
  costIncomplete: boolean;
}

/** The key of an entry that never reached a model (refused, or a local token count). */
export const NO_UPSTREAM = '(none)';

/** What usage reads of an entry: the rest of the entry is never needed to sum it. */
export type UsageFields = Pick<RequestLogEntry, 'time' | 'user' | 'protocol' | 'upstream' | 'input_tokens' | 'output_tokens' | 'cached_tokens' | 'cost_usd'>;

/**
 * Requests, tokens and cost per group, largest cost first (then most requests). Tokens count only
 * for requests that reached a model: a token count's input is not spent.
 */
export function aggregateUsage(entries: readonly UsageFields[], by: UsageGrouping): UsageReport {
  const tally = new UsageTally(by);
  for (const entry of entries) tally.add(entry);
  return tally.report();
}

/**
 * The sums of `aggregateUsage`, one entry at a time, so that a reader of a long log holds the groups
 * and not the entries. `add` reads only the field the grouping needs besides the sums (`time` only
 * for `day`), so a reader may leave the others empty.
 */
export class UsageTally {
  readonly by: UsageGrouping;
  #groups = new Map<string, UsageRow>();
  // The last local day seen and its bounds: a log is in time order, so one day's entries come together.
  #dayKey = '';
  #dayStart = 0;
  #dayEnd = 0;

  constructor(by: UsageGrouping) {
    this.by = by;
  }

  add(entry: UsageFields): void {
    const key = this.#keyOf(entry);
    let row = this.#groups.get(key);
    if (!row) this.#groups.set(key, (row = emptyRow(key)));
    row.requests += 1;
    if (entry.upstream === null) return;
    row.input_tokens += entry.input_tokens ?? 0;
    row.output_tokens += entry.output_tokens ?? 0;
    row.cached_tokens += entry.cached_tokens ?? 0;
    if (row.cost_usd === null) return;
    if (entry.cost_usd !== null) row.cost_usd += entry.cost_usd;
    // Nothing counted, nothing spent: an unknown price matters only when tokens were used.
    else if (entry.input_tokens !== null || entry.output_tokens !== null) row.cost_usd = null;
  }

  /**
   * A group summed elsewhere (by a database): `entry` names it as `add` reads it, `sums` are its
   * requests and, over those that reached a model, tokens and cost (null when one of them used
   * tokens at an unknown price).
   */
  addGroup(entry: UsageFields, sums: Omit<UsageRow, 'key'>): void {
    const key = this.#keyOf(entry);
    let row = this.#groups.get(key);
    if (!row) this.#groups.set(key, (row = emptyRow(key)));
    row.requests += sums.requests;
    row.input_tokens += sums.input_tokens;
    row.output_tokens += sums.output_tokens;
    row.cached_tokens += sums.cached_tokens;
    if (row.cost_usd !== null) row.cost_usd = sums.cost_usd === null ? null : row.cost_usd + sums.cost_usd;
  }

  report(): UsageReport {
    const by = this.by;
    const rows = [...this.#groups.values()].map((row) => Object.assign({}, row, { cost_usd: row.cost_usd === null ? null : roundCost(row.cost_usd) }));
    rows.sort((left, right) => (right.cost_usd ?? -1) - (left.cost_usd ?? -1) || right.requests - left.requests || (left.key < right.key ? -1 : 1));
    if (by === 'day') rows.sort((left, right) => (left.key < right.key ? -1 : 1));
    const total = emptyRow('total');
    let known = false;
    let costIncomplete = false;
    for (const row of rows) {
      total.requests += row.requests;
      total.input_tokens += row.input_tokens;
      total.output_tokens += row.output_tokens;
      total.cached_tokens += row.cached_tokens;
      if (row.cost_usd === null) costIncomplete = true;
      else {
        known = true;
        total.cost_usd = total.cost_usd! + row.cost_usd;
      }
    }
    total.cost_usd = known || rows.length === 0 ? roundCost(total.cost_usd!) : null;
    return { rows, total, costIncomplete };
  }

  #keyOf(entry: UsageFields): string {
    const by = this.by;
    switch (by) {
      case 'model':
        return entry.upstream ?? NO_UPSTREAM;
      case 'provider':
        return entry.upstream === null ? NO_UPSTREAM : entry.upstream.slice(0, entry.upstream.indexOf('/'));
      case 'user':
        return entry.user;
      case 'protocol':
        return entry.protocol;
      case 'day':
        return this.#dayOf(Date.parse(entry.time));
      default: {
        const unknown: never = by;
        throw new Error(`unknown grouping ${String(unknown)}`);
      }
    }
  }

  /** The day in the local time zone, as `YYYY-MM-DD`: a user reads days as they live them. */
  #dayOf(time: number): string {
    if (time >= this.#dayStart && time < this.#dayEnd) return this.#dayKey;
    const date = new Date(time);
    if (Number.isNaN(date.getTime())) return localDay(date);
    const year = date.getFullYear();
    const month = date.getMonth();
    const day = date.getDate();
    this.#dayStart = new Date(year, month, day).getTime();
    this.#dayEnd = new Date(year, month, day + 1).getTime();
    this.#dayKey = localDay(date);
    return this.#dayKey;
  }
}

function emptyRow(key: string): UsageRow {
  return { key, requests: 0, input_tokens: 0, output_tokens: 0, cached_tokens: 0, cost_usd: 0 };
}

function localDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

function roundCost(cost: number): number {
  return Math.round(cost * 1e9) / 1e9;
}
