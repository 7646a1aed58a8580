import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runNodeScript } from '../test/helpers/run-node-script.js';

// The whole benchmark in its quick mode, run by `npm run test:bench-tools` (and CI), so that it
// cannot rot: every scenario must still run end to end against the built gateway and report
// every line of the table and of the budget. No timed assertion: the numbers of a quick run mean
// nothing. `npm test` runs a few scenarios only (test/bench-smoke.test.ts).

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNNER = fileURLToPath(new URL('./run.js', import.meta.url));

const PATHS = ['passthrough', 'anthropic-to-chat', 'chat-to-gemini'];
const EXPECTED_SCENARIOS = [
  ...PATHS.flatMap((path) => [1, 10, 100].map((concurrency) => `nonstream.${path}.c${concurrency}`)),
  ...PATHS.flatMap((path) => [10, 100].map((concurrency) => `stream.${path}.c${concurrency}`)),
  ...['passthrough', 'anthropic-to-chat'].flatMap((path) => [100, 1000].map((size) => `memory.${path}.${size}`)),
  'inspector.passthrough.c10',
  'resume.passthrough.c10',
  'log.passthrough.c10',
  'log.and-line.passthrough.c10',
  'log.memory',
  'routing.chain-healthy-first',
  'routing.pool-one-limited',
  'memory.resident',
  'recoveries.loop-delay',
  'team.postgres.passthrough.c10',
  'team.postgres.record-write',
  'cli.help',
  'cli.recoveries-ls',
  'cli.usage',
];

/** The budget as it is read: translated lines against the floor, first bytes at c=10 in ms over the reference. */
const EXPECTED_BUDGET = [
  'nonstream.passthrough.c10 rps ratio',
  'nonstream.anthropic-to-chat.c10 rps floor',
  'nonstream.chat-to-gemini.c10 rps floor',
  ...PATHS.flatMap((path) => {
    const cost = path === 'passthrough' ? 'ratio' : 'floor';
    return [`stream.${path}.c10 ttfbP50Ms overReference`, `stream.${path}.c10 cpuUsPerStream ${cost}`, `stream.${path}.c100 ttfbP50Ms ${cost}`, `stream.${path}.c100 cpuUsPerStream ${cost}`];
  }),
  'inspector.passthrough.c10 rps ratio',
  'resume.passthrough.c10 rps ratio',
  'log.passthrough.c10 rps ratio',
  'routing.chain-healthy-first rps ratio',
  'routing.pool-one-limited rps ratio',
  'log.memory rssGrowthMb value',
  'memory.passthrough.1000 peakRssMb ratio',
  'memory.anthropic-to-chat.1000 peakRssMb ratio',
  'recoveries.loop-delay loopDelayP99Ms value',
  'team.postgres.passthrough.c10 rps ratio',
  'team.postgres.record-write recordAddP99Ms ratio',
  'team.postgres.record-write refreshP99Ms ratio',
  'cli.help wallMs value',
  'cli.recoveries-ls wallMs value',
  'cli.usage wallMs value',
];

/**
 * The team lines need PostgreSQL. CI exports DATABASE_URL (.ci/run), and there they must run.
 * Without it the runner starts a throwaway server with .ci/postgres when one is installed, and
 * otherwise reports them unavailable, saying why: as the store's own tests skip, so do they here.
 */
const TEAM_SCENARIOS = ['team.postgres.passthrough.c10', 'team.postgres.record-write'];
const mayBeUnavailable = (id: string, scenario: ScenarioResult | undefined): boolean =>
  !process.env.DATABASE_URL && TEAM_SCENARIOS.includes(id) && scenario?.status === 'unavailable' && /PostgreSQL/.test(scenario.reason ?? '');

interface ScenarioResult {
  id: string;
  status: 'ok' | 'unavailable' | 'skipped';
  reason?: string;
  metrics: string[];
  gateway?: Record<string, number | null>;
  reference?: Record<string, number | null>;
  floor?: Record<string, number | null>;
  versusFloor?: Record<string, number | null>;
  versusBaseline?: Record<string, number | null>;
}

interface BenchReport {
  quick: boolean;
  scenarios: Record<string, ScenarioResult>;
  budget: Array<{ id: string; metric: string; basis: string; value: number | null; verdict: string }>;
}


describe('the whole benchmark (bench/run.js --quick)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'switchyard-bench-smoke-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('runs every scenario against the built gateway, the floor and a baseline, and reports every line', async () => {
    const out = join(folder, 'results.json');
    // This checkout as its own baseline: what is checked is the pairing, not a difference.
    const { code, output } = await runNodeScript(RUNNER, ['--quick', '--baseline', ROOT, '--out', out], 100_000);
    expect(code, output).toBe(0);

    const report = JSON.parse(readFileSync(out, 'utf8')) as BenchReport;
    expect(report.quick).toBe(true);
    expect(Object.keys(report.scenarios)).toEqual(EXPECTED_SCENARIOS);
    for (const id of EXPECTED_SCENARIOS) {
      const scenario = report.scenarios[id]!;
      if (mayBeUnavailable(id, scenario)) {
        console.warn(`bench suite: ${id} not run: ${scenario.reason}`);
        continue;
      }
      expect({ id, status: scenario.status }, scenario.reason).toEqual({ id, status: 'ok' });
      // Every metric of the table has a figure on the gateway's side (and the reference's, but
      // for the recoveries line, which has none). The database's CPU is read from /proc: none
      // when DATABASE_URL names a server on another machine.
      for (const metric of scenario.metrics) {
        if (metric === 'dbCpuUsPerRequest') continue;
        expect({ id, metric, gateway: Number.isFinite(scenario.gateway?.[metric]) }).toEqual({ id, metric, gateway: true });
        if (id !== 'recoveries.loop-delay') expect({ id, metric, reference: Number.isFinite(scenario.reference?.[metric]) }).toEqual({ id, metric, reference: true });
      }
    }
    // The translated paths are also measured on the thinnest translator (the floor), passthrough
    // not; every throughput scenario on the baseline too.
    for (const id of EXPECTED_SCENARIOS.filter((candidate) => /^(nonstream|stream)\./.test(candidate))) {
      const scenario = report.scenarios[id]!;
      const translated = !id.includes('.passthrough.');
      expect({ id, floor: typeof scenario.floor }).toEqual({ id, floor: translated ? 'object' : 'undefined' });
      if (translated) expect(Object.keys(scenario.versusFloor ?? {}), id).toEqual(scenario.metrics);
      expect(Object.keys(scenario.versusBaseline ?? {}), id).toEqual(scenario.metrics);
    }
    // Every budget line is judged, each on its own basis.
    expect(report.budget.map((line) => `${line.id} ${line.metric} ${line.basis}`)).toEqual(EXPECTED_BUDGET);
    for (const line of report.budget.filter((candidate) => !mayBeUnavailable(candidate.id, report.scenarios[candidate.id]))) expect({ line: `${line.id} ${line.metric}`, verdict: ['PASS', 'MISS'].includes(line.verdict), value: Number.isFinite(line.value) }).toEqual({ line: `${line.id} ${line.metric}`, verdict: true, value: true });

    // The tables and the budget reach stdout, every scenario in them.
    for (const id of EXPECTED_SCENARIOS) expect(output).toContain(id);
    expect(output).toContain('RSS after warm-up MB');
    expect(output).toContain('This build against the baseline');
    expect(output).toContain('Translated paths on the thinnest translator');
    expect(output).toMatch(/^ {2}(PASS|MISS) +stream\.anthropic-to-chat\.c10 ttfbP50Ms = [+-]\d+\.\d\d ms \(budget ≤ 0\.55 ms over the reference\)$/m);
    expect(output).toMatch(/^ {2}(PASS|MISS) +stream\.chat-to-gemini\.c100 cpuUsPerStream = \d+\.\d\d× \(budget gateway ÷ floor ≤ 1\.25\)$/m);
    expect(output).toMatch(/^\d+ (PASS|MISS)/m);
  }, 100_000);

});
