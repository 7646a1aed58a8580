import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runNodeScript } from '../test/helpers/run-node-script.js';

// The profiling tools of bench/ (README there, "Profiling"), each in its quick mode against the
// built gateway: they must keep running, and hidden-classes.mjs is a gate (a warm request makes no
// hidden class). No timed assertion.

const ALLOC_PROFILE = fileURLToPath(new URL('./alloc-profile.mjs', import.meta.url));
const HIDDEN_CLASSES = fileURLToPath(new URL('./hidden-classes.mjs', import.meta.url));
const HEAP_PER_STREAM = fileURLToPath(new URL('./heap-per-stream.mjs', import.meta.url));
const GC_PER_STREAM = fileURLToPath(new URL('./gc-per-stream.mjs', import.meta.url));
const FIRST_BYTE_PHASES = fileURLToPath(new URL('./first-byte-phases.mjs', import.meta.url));
const INSTRUCTIONS = fileURLToPath(new URL('./instructions.mjs', import.meta.url));
const REOPTIMIZATIONS = fileURLToPath(new URL('./reoptimizations.mjs', import.meta.url));
// .ci/run installs valgrind; a machine without it skips that tool's test and says so.
const hasValgrind = spawnSync('valgrind', ['--version']).status === 0;
if (!hasValgrind) console.warn('valgrind is not installed: the test of bench/instructions.mjs is skipped');


describe('the profiling tools of bench/', () => {
  it('bench/alloc-profile.mjs profiles what a translated stream allocates, by function of the gateway', async () => {
    const { code, output } = await runNodeScript(ALLOC_PROFILE, ['anthropic-to-chat', '--quick', '--top', '200'], 60_000);
    expect(code, output).toBe(0);
    const summary = /^anthropic-to-chat: (\d+) streams at c=100, ([\d.]+) KB allocated per stream/m.exec(output);
    expect(summary, output).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThan(0);
    expect(Number(summary![2])).toBeGreaterThan(0);
    // The gateway's own code is in the profile (the upstream's Chat chunks are decoded in it).
    expect(output).toMatch(/dist\/protocols\/openai-chat\/decode-stream\.js/);
  }, 60_000);

  it('bench/hidden-classes.mjs: a warm gateway makes no hidden class per request, on any path', async () => {
    const { code, output } = await runNodeScript(HIDDEN_CLASSES, ['--quick', '--json'], 90_000);
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
    const { code, output } = await runNodeScript(ALLOC_PROFILE, ['chat-to-gemini', '--live', '--quick', '--top', '200'], 60_000);
    expect(code, output).toBe(0);
    const summary = /^chat-to-gemini: (\d+) open streams at c=100, ([\d.]+) KB held per open stream/m.exec(output);
    expect(summary, output).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThan(0);
    expect(Number(summary![2])).toBeGreaterThan(0);
  }, 60_000);

  it('bench/heap-per-stream.mjs counts what each open stream holds, closures by the line that made them', async () => {
    const { code, output } = await runNodeScript(HEAP_PER_STREAM, ['chat-to-gemini', '--quick', '--top', '500'], 60_000);
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
    const { code, output } = await runNodeScript(GC_PER_STREAM, ['anthropic-to-chat', '--line', '--quick'], 60_000);
    expect(code, output).toBe(0);
    const streams = /^anthropic-to-chat \(line on, request log on, inspector on\): (\d+) streams of 20 events at c=100/m.exec(output);
    expect(streams, output).not.toBeNull();
    expect(Number(streams![1])).toBeGreaterThan(0);
    const cpu = /^ {2}CPU ([\d.]+) µs per stream: user ([\d.]+), kernel ([\d.]+)$/m.exec(output);
    expect(cpu, output).not.toBeNull();
    expect(Number(cpu![1])).toBeGreaterThan(0);
    const threads = /^ {2}main thread ([\d.]+) µs per stream, other threads ([\d.]+) /m.exec(output);
    expect(threads, output).not.toBeNull();
    expect(Number(threads![1])).toBeGreaterThan(0);
    // The observer loaded into the gateway answered: its totals are numbers, not a failure to read them.
    expect(output).toMatch(/^ {2}collector pauses [\d.]+ µs per stream \(young generation\), [\d.]+ µs \(full\)$/m);
  }, 60_000);

  it('bench/reoptimizations.mjs counts what V8 optimizes in each round of traffic on every path', async () => {
    const { code, output } = await runNodeScript(REOPTIMIZATIONS, ['--quick', '--top', '500'], 60_000);
    expect(code, output).toBe(0);
    const rounds = [...output.matchAll(/^round +(\d+): +(\d+) functions optimized, (\d+) deoptimizations$/gm)];
    expect(rounds.map((round) => Number(round[1])), output).toEqual([1, 2]);
    // The first round compiles what every path runs, the gateway's own code among it.
    expect(Number(rounds[0]![2])).toBeGreaterThan(0);
    expect(output).toMatch(/^optimized in rounds 2-2 \(times, function\):$/m);
    expect(output).not.toMatch(/file:\/\//);
  }, 60_000);

  it("bench/first-byte-phases.mjs times a stream's way to its first byte inside the process, step by step", async () => {
    const { code, output } = await runNodeScript(FIRST_BYTE_PHASES, ['anthropic-to-chat', '--quick'], 60_000);
    expect(code, output).toBe(0);
    const streams = /^anthropic-to-chat \(--quiet, request log on, inspector on\): (\d+) streams of 20 events at c=100, first byte at the client p50 ([\d.]+) ms$/m.exec(output);
    expect(streams, output).not.toBeNull();
    expect(Number(streams![1])).toBeGreaterThan(0);
    // Every step was stamped inside the gateway: its upstream request linked to the request it serves.
    const steps = ['upstream request made', 'written to the upstream', "the upstream's head read", 'first byte written to the client', 'in all'];
    const medians = steps.map((step) => Number(new RegExp(`^ {4}${step} +([\\d.]+) +[\\d.]+ +[\\d.]+$`, 'm').exec(output)?.[1]));
    expect(medians.every((median) => median >= 0), output).toBe(true);
    expect(medians[4]).toBeGreaterThanOrEqual(medians[0]!);
  }, 60_000);

  it.skipIf(!hasValgrind)('bench/instructions.mjs counts the instructions of a request, by function, JIT code named', async () => {
    const { code, output } = await runNodeScript(INSTRUCTIONS, ['passthrough', '--line', '--warm', '1000', '--requests', '200', '--top', '400'], 120_000);
    expect(code, output).toBe(0);
    const summary = /^passthrough \(line on, request log on, inspector on\): 200 non-stream requests at c=10 after 1000\n {2}(\d+) k instructions per request, (\d+) k without V8's compiler$/m.exec(output);
    expect(summary, output).not.toBeNull();
    expect(Number(summary![2])).toBeGreaterThan(0);
    expect(Number(summary![2])).toBeLessThanOrEqual(Number(summary![1]));
    // The gateway's own functions appear by name: the request log's observer runs on every request.
    expect(output).toMatch(/ JS JS:\S* file:\/\/\/\S*\/dist\/log\/request-log-observer\.js/);
  }, 120_000);

  it.skipIf(!hasValgrind)('bench/instructions.mjs --stream counts the instructions of a translated stream', async () => {
    const { code, output } = await runNodeScript(INSTRUCTIONS, ['chat-to-gemini', '--stream', '--pace', '5', '--warm', '300', '--requests', '60', '--top', '400'], 120_000);
    expect(code, output).toBe(0);
    const summary = /^chat-to-gemini \(--quiet, request log on, inspector on\): 60 streams \(records 5 ms apart\) at c=10 after 300\n {2}(\d+) k instructions per stream, (\d+) k without V8's compiler$/m.exec(output);
    expect(summary, output).not.toBeNull();
    expect(Number(summary![2])).toBeGreaterThan(0);
    // Each record goes through the gateway's Gemini stream decoder.
    expect(output).toMatch(/dist\/protocols\/gemini\/decode-stream\.js/);
  }, 120_000);
});
