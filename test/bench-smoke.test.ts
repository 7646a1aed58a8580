import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runNodeScript } from './helpers/run-node-script.js';

// The benchmark's runner in its quick mode on a few scenarios, one of each kind of runner that a
// change to the gateway or to bench/lib is likely to break: a translated path against the
// floor and a baseline, a stream, a pair of gateways, a CLI line. The whole suite in quick mode
// runs in CI (`npm run test:bench-tools`, bench/suite.test.ts). No timed assertion: the numbers
// of a quick run mean nothing.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNNER = fileURLToPath(new URL('../bench/run.js', import.meta.url));
const STREAM_CODECS = fileURLToPath(new URL('../bench/stream-codecs.mjs', import.meta.url));

const SELECTED = ['nonstream.chat-to-gemini.c10', 'stream.passthrough.c10', 'log.passthrough.c10', 'cli.help'];

interface ScenarioResult {
  status: 'ok' | 'unavailable' | 'skipped';
  metrics: string[];
  gateway?: Record<string, number | null>;
  reference?: Record<string, number | null>;
  versusFloor?: Record<string, number | null>;
  versusBaseline?: Record<string, number | null>;
}

describe('the benchmark (bench/run.js --quick on a few scenarios)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'switchyard-bench-smoke-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('measures the scenarios asked for, skips the others, and judges their budget lines', async () => {
    const out = join(folder, 'results.json');
    const { code, output } = await runNodeScript(RUNNER, ['--quick', ...SELECTED.flatMap((id) => ['--only', id]), '--baseline', ROOT, '--out', out], 60_000);
    expect(code, output).toBe(0);

    const report = JSON.parse(readFileSync(out, 'utf8')) as { quick: boolean; scenarios: Record<string, ScenarioResult>; budget: Array<{ id: string; verdict: string; value: number | null }> };
    expect(report.quick).toBe(true);
    for (const [id, scenario] of Object.entries(report.scenarios)) {
      expect({ id, status: scenario.status }).toEqual({ id, status: SELECTED.includes(id) ? 'ok' : 'skipped' });
      if (!SELECTED.includes(id)) continue;
      for (const metric of scenario.metrics) {
        expect({ id, metric, gateway: Number.isFinite(scenario.gateway?.[metric]), reference: Number.isFinite(scenario.reference?.[metric]) }).toEqual({ id, metric, gateway: true, reference: true });
      }
    }
    // The translated path against the floor, both throughput paths against the baseline.
    expect(Object.keys(report.scenarios['nonstream.chat-to-gemini.c10']!.versusFloor ?? {})).toEqual(report.scenarios['nonstream.chat-to-gemini.c10']!.metrics);
    expect(Object.keys(report.scenarios['stream.passthrough.c10']!.versusBaseline ?? {})).toEqual(report.scenarios['stream.passthrough.c10']!.metrics);
    // The budget lines of the scenarios measured are judged, the others skipped.
    const judged = report.budget.filter((line) => line.verdict !== 'SKIPPED');
    expect(judged.map((line) => line.id).sort()).toEqual(['cli.help', 'log.passthrough.c10', 'nonstream.chat-to-gemini.c10', 'stream.passthrough.c10', 'stream.passthrough.c10']);
    for (const line of judged) expect({ id: line.id, verdict: ['PASS', 'MISS'].includes(line.verdict), value: Number.isFinite(line.value) }).toEqual({ id: line.id, verdict: true, value: true });
    expect(report.budget.filter((line) => line.verdict === 'SKIPPED').every((line) => !SELECTED.includes(line.id))).toBe(true);
    expect(output).toContain('This build against the baseline');
    expect(output).toContain('Translated paths on the thinnest translator');
    expect(output).toMatch(/^\d+ SKIPPED, \d+ (PASS|MISS)/m);
  }, 60_000);

  it('bench/stream-codecs.mjs runs every pair of different protocols and writes what each emits', async () => {
    const { code, output } = await runNodeScript(STREAM_CODECS, ['--quick', '--json'], 60_000);
    expect(code, output).toBe(0);
    const report = JSON.parse(output) as { results: Array<{ upstream: string; client: string; bytesPerStream: number }> };
    expect(report.results).toHaveLength(12);
    for (const result of report.results) expect(result.bytesPerStream, `${result.upstream} → ${result.client}`).toBeGreaterThan(100);
  }, 60_000);
});
