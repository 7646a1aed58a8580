import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The benchmark is not run in CI, but its quick mode is, so that it cannot rot: every scenario
// must still run end to end against the built gateway. No timed assertion: the numbers of a quick
// run mean nothing.

const RUNNER = fileURLToPath(new URL('../bench/run.js', import.meta.url));
const STREAM_CODECS = fileURLToPath(new URL('../bench/stream-codecs.mjs', import.meta.url));
const ALLOC_PROFILE = fileURLToPath(new URL('../bench/alloc-profile.mjs', import.meta.url));
const HIDDEN_CLASSES = fileURLToPath(new URL('../bench/hidden-classes.mjs', import.meta.url));
const HEAP_PER_STREAM = fileURLToPath(new URL('../bench/heap-per-stream.mjs', import.meta.url));
const GC_PER_STREAM = fileURLToPath(new URL('../bench/gc-per-stream.mjs', import.meta.url));

const EXPECTED_SCENARIOS = [
  ...['passthrough', 'anthropic-to-chat', 'chat-to-gemini'].flatMap((path) => [1, 10, 100].map((concurrency) => `nonstream.${path}.c${concurrency}`)),
  ...['passthrough', 'anthropic-to-chat', 'chat-to-gemini'].flatMap((path) => [10, 100].map((concurrency) => `stream.${path}.c${concurrency}`)),
  ...['passthrough', 'anthropic-to-chat'].flatMap((path) => [100, 1000].map((size) => `memory.${path}.${size}`)),
  'recoveries.loop-delay',
  'cli.help',
  'cli.recoveries-ls',
];

interface ScenarioResult {
  id: string;
  status: 'ok' | 'unavailable' | 'skipped';
  reason?: string;
  gateway?: Record<string, number | null>;
  floor?: Record<string, number | null>;
  versusFloor?: Record<string, number | null>;
}

interface BenchReport {
  quick: boolean;
  scenarios: Record<string, ScenarioResult>;
  budget: Array<{ id: string; metric: string; verdict: string }>;
}

function runBench(args: string[], timeoutMs: number, script = RUNNER): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr.on('data', (data: Buffer) => (output += data.toString()));
    // Bounded: a hung run is killed, and the assertion on the exit code reports it.
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('the benchmark (bench/run.js --quick)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'switchyard-bench-smoke-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('runs every scenario against the built gateway and writes the results', async () => {
    const out = join(folder, 'results.json');
    const { code, output } = await runBench(['--quick', '--out', out], 100_000);
    expect(code, output).toBe(0);

    const report = JSON.parse(readFileSync(out, 'utf8')) as BenchReport;
    expect(report.quick).toBe(true);
    expect(Object.keys(report.scenarios)).toEqual(EXPECTED_SCENARIOS);
    for (const id of EXPECTED_SCENARIOS) {
      const scenario = report.scenarios[id];
      expect({ id, status: scenario.status, reason: scenario.reason }).toEqual({ id, status: 'ok', reason: scenario.reason });
      expect(scenario.gateway, id).toBeTypeOf('object');
    }
    // The translated paths are also measured on the thinnest translator (the floor), passthrough not.
    for (const id of EXPECTED_SCENARIOS.filter((candidate) => /^(nonstream|stream)\./.test(candidate))) {
      const translated = !id.includes('.passthrough.');
      expect({ id, floor: typeof report.scenarios[id].floor }).toEqual({ id, floor: translated ? 'object' : 'undefined' });
      if (translated) expect(Object.keys(report.scenarios[id].versusFloor ?? {}), id).toContain(id.startsWith('stream.') ? 'cpuUsPerStream' : 'rps');
    }
    expect(output).toContain('Translated paths on the thinnest translator');
    expect(report.budget.length).toBeGreaterThan(0);
    // The table and the budget lines reach stdout.
    expect(output).toContain('nonstream.passthrough.c10');
    expect(output).toContain('Budget:');
  }, 120_000);

  it('--baseline runs another checkout\'s gateway in the same rounds and reports this build against it', async () => {
    const out = join(folder, 'baseline.json');
    // This checkout as its own baseline: what is checked is the pairing, not a difference.
    const root = fileURLToPath(new URL('..', import.meta.url));
    const { code, output } = await runBench(['--quick', '--only', 'stream.passthrough.c10', '--baseline', root, '--out', out], 60_000);
    expect(code, output).toBe(0);
    const scenario = (JSON.parse(readFileSync(out, 'utf8')) as { scenarios: Record<string, { baseline?: object; versusBaseline?: Record<string, number> }> }).scenarios['stream.passthrough.c10'];
    expect(scenario.baseline).toBeTypeOf('object');
    expect(Object.keys(scenario.versusBaseline ?? {})).toContain('cpuUsPerStream');
    expect(output).toContain('This build against the baseline');
  }, 60_000);

  it('bench/stream-codecs.mjs runs every pair of different protocols and writes what each emits', async () => {
    const { code, output } = await runBench(['--quick', '--json'], 60_000, STREAM_CODECS);
    expect(code, output).toBe(0);
    const report = JSON.parse(output) as { results: Array<{ upstream: string; client: string; bytesPerStream: number }> };
    expect(report.results).toHaveLength(12);
    for (const result of report.results) expect(result.bytesPerStream, `${result.upstream} → ${result.client}`).toBeGreaterThan(100);
  }, 60_000);

  it('bench/alloc-profile.mjs profiles what a translated stream allocates, by function of the gateway', async () => {
    const { code, output } = await runBench(['anthropic-to-chat', '--quick', '--top', '200'], 60_000, ALLOC_PROFILE);
    expect(code, output).toBe(0);
    const summary = /^anthropic-to-chat: (\d+) streams at c=100, ([\d.]+) KB allocated per stream/m.exec(output);
    expect(summary, output).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThan(0);
    expect(Number(summary![2])).toBeGreaterThan(0);
    // The gateway's own code is in the profile (the upstream's Chat chunks are decoded in it).
    expect(output).toMatch(/dist\/protocols\/openai-chat\/decode-stream\.js/);
  }, 60_000);

  it('bench/hidden-classes.mjs: a warm gateway makes no hidden class per request, on any path', async () => {
    const { code, output } = await runBench(['--quick', '--json'], 90_000, HIDDEN_CLASSES);
    expect(code, output).toBe(0);
    const report = JSON.parse(output) as { results: Array<{ path: string; stream: boolean; total: number; perRequest: Record<string, number> }> };
    expect(report.results.map((result) => `${result.path}${result.stream ? ' stream' : ''}`)).toEqual([
      'passthrough', 'passthrough stream', 'anthropic-to-chat', 'anthropic-to-chat stream', 'chat-to-gemini', 'chat-to-gemini stream',
    ]);
    // One per request or more is code that makes a shape per object; what is left below is the
    // process still warming up: a one-off burst of up to ~130 events, 0.27 over the 500 requests counted.
    expect(report.results.filter((result) => result.total >= 0.5)).toEqual([]);
  }, 90_000);

  it('bench/alloc-profile.mjs --live reads what the open streams hold', async () => {
    const { code, output } = await runBench(['chat-to-gemini', '--live', '--quick', '--top', '200'], 60_000, ALLOC_PROFILE);
    expect(code, output).toBe(0);
    const summary = /^chat-to-gemini: (\d+) open streams at c=100, ([\d.]+) KB held per open stream/m.exec(output);
    expect(summary, output).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThan(0);
    expect(Number(summary![2])).toBeGreaterThan(0);
  }, 60_000);

  it('bench/heap-per-stream.mjs counts what each open stream holds, closures by the line that made them', async () => {
    const { code, output } = await runBench(['chat-to-gemini', '--quick', '--top', '500'], 60_000, HEAP_PER_STREAM);
    expect(code, output).toBe(0);
    const summary = /^chat-to-gemini: 20 streams open \(20 at the fake upstream\), ([\d.]+) KB and (\d+) objects per open stream/m.exec(output);
    expect(summary, output).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThan(0);
    expect(Number(summary![2])).toBeGreaterThan(0);
    // The gateway's own closures are named by file and line (a stream's Gemini decoder is one).
    expect(output).toMatch(/^closures and their contexts \(\d+ objects, [\d.]+ KB\)/m);
    expect(output).toMatch(/^ +[\d.]+ +\d+ +closure \S+ dist\/[\w/-]+\.js:\d+$/m);
  }, 60_000);

  it('bench/gc-per-stream.mjs splits the CPU of a stream and reads the pauses of the collector from inside the process', async () => {
    const { code, output } = await runBench(['anthropic-to-chat', '--quick'], 60_000, GC_PER_STREAM);
    expect(code, output).toBe(0);
    const streams = /^anthropic-to-chat: (\d+) streams of 20 events at c=100/m.exec(output);
    expect(streams, output).not.toBeNull();
    expect(Number(streams![1])).toBeGreaterThan(0);
    const cpu = /^ {2}CPU ([\d.]+) µs per stream: user ([\d.]+), kernel ([\d.]+)$/m.exec(output);
    expect(cpu, output).not.toBeNull();
    expect(Number(cpu![1])).toBeGreaterThan(0);
    // The observer loaded into the gateway answered: its totals are numbers, not a failure to read them.
    expect(output).toMatch(/^ {2}collector pauses [\d.]+ µs per stream \(young generation\), [\d.]+ µs \(full\)$/m);
  }, 60_000);
});
