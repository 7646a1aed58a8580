// The performance budget and the results table (plain text for the terminal, markdown for the README).
import { median } from './stats.mjs';

/**
 * Each line of the budget: a scenario's metric read one of three ways.
 * - `ratio`: the gateway ÷ the reference, paired inside each round (median over rounds).
 * - `floor`: the gateway ÷ the thinnest translator (bench/thin-translator.mjs), for the translated
 *   paths: what the gateway adds to translating itself. The reference cannot be the yardstick
 *   there: translating alone costs up to 1.43× the reference's CPU per stream on this machine, and
 *   the floor's own first byte at c=100 moved from 0.84× to 1.66× over six runs.
 * - `overReference`: the gateway's figure minus the reference's, in ms (paired, median over rounds):
 *   the first byte at c=10, sub-millisecond, where a ratio of two small numbers swung from 1.09× to
 *   2.09× between runs while the difference stayed within 0.06–0.55 ms.
 * - `value`: the gateway's figure alone.
 */
const TRANSLATED_PATHS = ['anthropic-to-chat', 'chat-to-gemini'];
export const BUDGET = [
  { id: 'nonstream.passthrough.c10', metric: 'rps', basis: 'ratio', op: '>=', limit: 0.8 },
  ...TRANSLATED_PATHS.map((path) => ({ id: `nonstream.${path}.c10`, metric: 'rps', basis: 'floor', op: '>=', limit: 0.8 })),
  ...['passthrough', ...TRANSLATED_PATHS].flatMap((path) =>
    [10, 100].flatMap((concurrency) => {
      const translated = TRANSLATED_PATHS.includes(path);
      const costBasis = translated ? { basis: 'floor', limit: 1.25 } : { basis: 'ratio', limit: 1.5 };
      const firstByte = concurrency === 10 ? { basis: 'overReference', limit: 0.55 } : costBasis;
      return [
        { id: `stream.${path}.c${concurrency}`, metric: 'ttfbP50Ms', op: '<=', ...firstByte },
        { id: `stream.${path}.c${concurrency}`, metric: 'cpuUsPerStream', op: '<=', ...costBasis },
      ];
    }),
  ),
  // With the page open ÷ without (bench/lib/run-inspector.mjs): its "reference" is the gateway with no page.
  { id: 'inspector.passthrough.c10', metric: 'rps', basis: 'ratio', op: '>=', limit: 0.95 },
  // With 1,000 resumable records in the store ÷ an empty store (bench/lib/run-resume.mjs).
  { id: 'resume.passthrough.c10', metric: 'rps', basis: 'ratio', op: '>=', limit: 0.98 },
  // The request log and the stderr line on ÷ off, and routing ÷ no routing (bench/lib/run-paired.mjs).
  { id: 'log.passthrough.c10', metric: 'rps', basis: 'ratio', op: '>=', limit: 0.97 },
  { id: 'routing.chain-healthy-first', metric: 'rps', basis: 'ratio', op: '>=', limit: 0.98 },
  { id: 'routing.pool-one-limited', metric: 'rps', basis: 'ratio', op: '>=', limit: 0.95 },
  // RSS growth in MB from the first tenth of 100,000 logged requests to the end (bench/lib/run-log-memory.mjs).
  { id: 'log.memory', metric: 'rssGrowthMb', basis: 'value', op: '<=', limit: 10 },
  { id: 'memory.passthrough.1000', metric: 'peakRssMb', basis: 'ratio', op: '<=', limit: 1.3 },
  { id: 'memory.anthropic-to-chat.1000', metric: 'peakRssMb', basis: 'ratio', op: '<=', limit: 1.3 },
  { id: 'recoveries.loop-delay', metric: 'loopDelayP99Ms', basis: 'value', op: '<=', limit: 20 },
  // The store on PostgreSQL ÷ the file store, no recovery made (bench/lib/run-team.mjs).
  { id: 'team.postgres.passthrough.c10', metric: 'rps', basis: 'ratio', op: '>=', limit: 0.9 },
  // A record's write with 100,000 rows in the table ÷ with 10 (bench/postgres-store.mjs): its cost
  // must not grow with the table (docs/team.md, "How records are kept"). Up to twice, for the
  // noise of a p99 of a few milliseconds.
  { id: 'team.postgres.record-write', metric: 'recordAddP99Ms', basis: 'ratio', op: '<=', limit: 2 },
  { id: 'team.postgres.record-write', metric: 'refreshP99Ms', basis: 'ratio', op: '<=', limit: 2 },
  { id: 'cli.help', metric: 'wallMs', basis: 'value', op: '<=', limit: 150 },
  { id: 'cli.recoveries-ls', metric: 'wallMs', basis: 'value', op: '<=', limit: 300 },
  { id: 'cli.usage', metric: 'wallMs', basis: 'value', op: '<=', limit: 1000 },
];

/** What each metric is called in the table, and how it is printed. */
export const METRICS = {
  rps: { label: 'req/s', format: (value) => formatNumber(value, 0) },
  streamsPerSecond: { label: 'streams/s', format: (value) => formatNumber(value, 0) },
  p50Ms: { label: 'latency p50 ms', format: (value) => formatNumber(value, 2) },
  p99Ms: { label: 'latency p99 ms', format: (value) => formatNumber(value, 2) },
  totalP50Ms: { label: 'total time p50 ms', format: (value) => formatNumber(value, 1) },
  ttfbP50Ms: { label: 'first byte p50 ms', format: (value) => formatNumber(value, 2) },
  ttfbP99Ms: { label: 'first byte p99 ms', format: (value) => formatNumber(value, 2) },
  cpuUsPerRequest: { label: 'CPU µs/request', format: (value) => formatNumber(value, 0) },
  cpuUsPerStream: { label: 'CPU µs/stream', format: (value) => formatNumber(value, 0) },
  peakRssMb: { label: 'peak RSS MB', format: (value) => formatNumber(value, 1) },
  idleRssMb: { label: 'idle RSS MB', format: (value) => formatNumber(value, 1) },
  warmRssMb: { label: 'RSS after warm-up MB', format: (value) => formatNumber(value, 1) },
  kbPerStream: { label: 'RSS growth KB/stream', format: (value) => formatNumber(value, 1) },
  maxLive: { label: 'streams open at once', format: (value) => formatNumber(value, 0) },
  loopDelayP99Ms: { label: 'loop delay p99 ms (worst)', format: (value) => formatNumber(value, 1) },
  addP50Ms: { label: 'add p50 ms (5 MB)', format: (value) => formatNumber(value, 1) },
  wallMs: { label: 'wall ms (median)', format: (value) => formatNumber(value, 0) },
  dbCpuUsPerRequest: { label: 'database CPU µs/request', format: (value) => formatNumber(value, 0) },
  recordAddP50Ms: { label: 'add p50 ms', format: (value) => formatNumber(value, 2) },
  recordAddP99Ms: { label: 'add p99 ms', format: (value) => formatNumber(value, 2) },
  refreshP50Ms: { label: 'refresh (replace) p50 ms', format: (value) => formatNumber(value, 2) },
  refreshP99Ms: { label: 'refresh (replace) p99 ms', format: (value) => formatNumber(value, 2) },
  rssWarmMb: { label: 'highest RSS, second tenth MB', format: (value) => formatNumber(value, 1) },
  rssEndMb: { label: 'highest RSS, last tenth MB', format: (value) => formatNumber(value, 1) },
  rssGrowthMb: { label: 'RSS growth MB', format: (value) => formatNumber(value, 1) },
};

function formatNumber(value, digits) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '–';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const formatRatio = (value) => (typeof value === 'number' && Number.isFinite(value) ? `${value.toFixed(2)}×` : '–');

/** The figure a budget line judges, or undefined when the scenario lacks it. */
function budgetValue(scenario, line) {
  switch (line.basis) {
    case 'ratio':
      return scenario.ratios?.[line.metric];
    case 'floor':
      return scenario.versusFloor?.[line.metric];
    case 'overReference': {
      const rounds = (scenario.rounds ?? []).filter((round) => round.gateway && round.reference);
      return rounds.length > 0 ? median(rounds.map((round) => round.gateway[line.metric] - round.reference[line.metric])) : undefined;
    }
    case 'value':
      return scenario.gateway?.[line.metric];
    default:
      throw new Error(`unknown budget basis ${line.basis}`);
  }
}

/** How a budget line reads, e.g. `gateway ÷ floor ≤ 1.25`. */
function budgetText(line) {
  const op = line.op === '>=' ? '≥' : '≤';
  switch (line.basis) {
    case 'ratio':
      return `ratio ${op} ${line.limit}`;
    case 'floor':
      return `gateway ÷ floor ${op} ${line.limit}`;
    case 'overReference':
      return `${op} ${line.limit} ms over the reference`;
    default:
      return `${op} ${line.limit}${line.metric.endsWith('Ms') ? ' ms' : ''}`;
  }
}

/** A budget line's figure as printed: `1.12×`, `+0.31 ms`, `7.7`. */
export function formatBudgetValue(line) {
  if (line.value === null) return '–';
  if (line.basis === 'ratio' || line.basis === 'floor') return `${line.value.toFixed(2)}×`;
  if (line.basis === 'overReference') return `${line.value >= 0 ? '+' : ''}${line.value.toFixed(2)} ms`;
  return line.value.toFixed(1);
}

/** PASS / MISS for each budget line (n/a when the scenario did not run, or ran without the floor). */
export function evaluateBudget(scenarios) {
  return BUDGET.map((line) => {
    const scenario = scenarios[line.id];
    const value = scenario?.status === 'ok' ? budgetValue(scenario, line) : undefined;
    const known = typeof value === 'number' && Number.isFinite(value);
    const pass = known && !scenario.budgetBlocked && (line.op === '>=' ? value >= line.limit : value <= line.limit);
    const note = known ? scenario.budgetBlocked : scenario?.status === 'ok' && line.basis === 'floor' ? 'the floor was not measured (--no-floor)' : undefined;
    return Object.assign(
      { id: line.id, metric: line.metric, basis: line.basis, op: line.op, limit: line.limit, value: known ? value : null, verdict: !known ? (scenario?.status === 'skipped' ? 'SKIPPED' : 'N/A') : pass ? 'PASS' : 'MISS', text: budgetText(line) },
      note ? { note } : {},
    );
  });
}

/** Table rows: one per scenario and metric, with the budget line when there is one. */
export function tableRows(scenarios, budget) {
  const rows = [];
  for (const scenario of Object.values(scenarios)) {
    if (scenario.status !== 'ok') {
      rows.push({ scenario: scenario.id, metric: scenario.status, reference: '', gateway: '', ratio: '', budget: '', verdict: scenario.status === 'skipped' ? '' : 'N/A', note: scenario.reason ?? '' });
      continue;
    }
    for (const [index, metric] of scenario.metrics.entries()) {
      const format = METRICS[metric]?.format ?? ((value) => formatNumber(value, 2));
      const line = budget.find((candidate) => candidate.id === scenario.id && candidate.metric === metric);
      rows.push({
        scenario: scenario.id,
        metric: METRICS[metric]?.label ?? metric,
        reference: format(scenario.reference?.[metric]),
        gateway: format(scenario.gateway?.[metric]),
        ratio: scenario.ratios && metric in scenario.ratios ? formatRatio(scenario.ratios[metric]) : '',
        budget: line === undefined ? '' : line.basis === 'ratio' || line.basis === 'value' ? line.text : `${line.text}: ${formatBudgetValue(line)}`,
        verdict: line?.verdict ?? '',
        note: index === 0 && scenario.reason ? `(${scenario.reason})` : '',
      });
    }
  }
  return rows;
}

/**
 * One row per metric of each scenario that ran and has `key` (a paired comparison), with the
 * cells `cells(scenario, metric, format)` gives.
 */
function comparisonRows(scenarios, key, cells) {
  const rows = [];
  for (const scenario of Object.values(scenarios)) {
    if (scenario.status !== 'ok' || !scenario[key]) continue;
    for (const metric of scenario.metrics) {
      const format = METRICS[metric]?.format ?? ((value) => formatNumber(value, 2));
      rows.push({ scenario: scenario.id, metric: METRICS[metric]?.label ?? metric, ...cells(scenario, metric, format) });
    }
  }
  return rows;
}

/**
 * With `--baseline`: this build against the other checkout's gateway, measured in the same rounds
 * (each ratio paired inside a round, then the median over rounds). Only the scenarios that have one.
 */
export function baselineRows(scenarios) {
  return comparisonRows(scenarios, 'versusBaseline', (scenario, metric, format) => ({
    baseline: format(scenario.baseline?.[metric]),
    gateway: format(scenario.gateway?.[metric]),
    ratio: formatRatio(scenario.versusBaseline[metric]),
  }));
}

/**
 * The translated scenarios measured on the thinnest translator too (bench/thin-translator.mjs):
 * the floor against the reference, and the gateway against the floor, each paired inside a round.
 */
export function floorRows(scenarios) {
  return comparisonRows(scenarios, 'versusFloor', (scenario, metric, format) => ({
    reference: format(scenario.reference?.[metric]),
    floor: format(scenario.floor?.[metric]),
    gateway: format(scenario.gateway?.[metric]),
    'floor ÷ reference': formatRatio(scenario.floorRatios[metric]),
    'gateway ÷ floor': formatRatio(scenario.versusFloor[metric]),
  }));
}

const COLUMNS = ['scenario', 'metric', 'reference', 'gateway', 'ratio', 'budget', 'verdict'];
export const BASELINE_COLUMNS = ['scenario', 'metric', 'baseline', 'gateway', 'ratio'];
export const FLOOR_COLUMNS = ['scenario', 'metric', 'reference', 'floor', 'gateway', 'floor ÷ reference', 'gateway ÷ floor'];
/** The columns holding numbers (right-aligned): every one after the scenario and the metric but the budget's. */
const isNumberColumn = (index, columns) => index >= 2 && !['budget', 'verdict'].includes(columns[index]);

export function formatTextTable(rows, columns = COLUMNS) {
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => String(row[column]).length)));
  const line = (cells) => cells.map((cell, index) => (isNumberColumn(index, columns) ? String(cell).padStart(widths[index]) : String(cell).padEnd(widths[index]))).join('  ');
  const out = [line(columns), line(widths.map((width) => '-'.repeat(width)))];
  let previous;
  for (const row of rows) {
    const text = line(columns.map((column) => (column === 'scenario' && row.scenario === previous ? '' : row[column])));
    out.push(row.note ? `${text}  ${row.note}` : text);
    previous = row.scenario;
  }
  return out.join('\n');
}

export function formatMarkdownTable(rows, columns = COLUMNS) {
  const out = [`| ${columns.join(' | ')} |`, `|${columns.map((column, index) => (isNumberColumn(index, columns) ? '---:' : '---')).join('|')}|`];
  let previous;
  for (const row of rows) {
    const cells = columns.map((column) => (column === 'scenario' && row.scenario === previous ? '' : column === 'scenario' ? `\`${row.scenario}\`` : row[column]));
    if (row.note) cells[cells.length - 1] = `${cells[cells.length - 1]} ${row.note.replaceAll('|', '\\|')}`.trim();
    out.push(`| ${cells.join(' | ')} |`);
    previous = row.scenario;
  }
  return out.join('\n');
}
