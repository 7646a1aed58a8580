// Small statistics helpers: nearest-rank quantiles and the median of rounds.

export function quantile(values, q) {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export function median(values) {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return NaN;
  const sorted = [...finite].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The median of each numeric field over the rounds. */
export function medianOfRounds(rounds) {
  const result = {};
  const keys = new Set(rounds.flatMap((round) => Object.keys(round)));
  for (const key of keys) {
    const values = rounds.map((round) => round[key]);
    if (values.every((value) => typeof value === 'number' || value === null || value === undefined)) result[key] = median(values.map((value) => value ?? NaN));
  }
  return result;
}

/** A scenario measured in rounds of reference and gateway: the medians of its rounds and of their ratios. */
export function measuredScenario(scenario, rounds) {
  return {
    id: scenario.id,
    group: scenario.group,
    description: scenario.description,
    metrics: scenario.metrics,
    status: 'ok',
    rounds,
    reference: medianOfRounds(rounds.map((round) => round.reference)),
    gateway: medianOfRounds(rounds.map((round) => round.gateway)),
    ratios: Object.fromEntries(scenario.metrics.map((metric) => [metric, median(rounds.map((round) => round.ratios[metric]))])),
  };
}
