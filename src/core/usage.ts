/**
 * Token usage. Input `total` includes cached tokens; output `total` includes reasoning tokens
 * (docs/protocols.md §7.6). A count the upstream did not report stays undefined.
 */
export interface Usage {
  input: { total?: number; noCache?: number; cacheRead?: number; cacheWrite?: number };
  output: { total?: number; text?: number; reasoning?: number };
  /** The upstream's own usage object. */
  raw?: unknown;
}

export function createEmptyUsage(): Usage {
  return { input: {}, output: {} };
}

/**
 * Usage from the counts OpenAI-style APIs report (input including cache, output including
 * reasoning), deriving the uncached input and the text output. Unknown counts stay undefined.
 */
export function createUsageFromTotals(counts: {
  input?: number;
  cacheRead?: number;
  cacheWrite?: number;
  output?: number;
  reasoning?: number;
  raw?: unknown;
}): Usage {
  return {
    input: {
      total: counts.input,
      noCache: counts.input === undefined ? undefined : counts.input - (counts.cacheRead ?? 0) - (counts.cacheWrite ?? 0),
      cacheRead: counts.cacheRead,
      cacheWrite: counts.cacheWrite,
    },
    output: {
      total: counts.output,
      text: counts.output === undefined ? undefined : counts.output - (counts.reasoning ?? 0),
      reasoning: counts.reasoning,
    },
    ...(counts.raw !== undefined && { raw: counts.raw }),
  };
}

/** A token count from a wire object, when it is one. */
export function readCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
