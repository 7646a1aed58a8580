// CLI: wall time of `gateway --help`, of `gateway recoveries ls` with 1000 records and of
// `gateway usage --json` over 100,000 request log entries, each the
// median of several runs after one unmeasured run; `node -e 0` is the reference (Node's own start).
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from './stats.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'gateway.js');

function timeRuns(args, env, runs, unmeasured) {
  const options = { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, encoding: 'utf8', timeout: 30_000 };
  let first;
  for (let run = 0; run < unmeasured; run += 1) first ??= spawnSync(process.execPath, args, options);
  const walls = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, options);
    walls.push(performance.now() - started);
    if (result.status !== 0) return { failed: result, walls };
    first ??= result;
  }
  return { first, walls, wallMs: median(walls) };
}

async function seedStore(directory, count) {
  const { openRecoveryStore } = await import('../../dist/recoveries/recovery-store.js');
  const { createRecoveryRecord } = await import('../../dist/recoveries/recovery-record.js');
  const store = await openRecoveryStore({ directory, maxRecords: count + 1000 });
  const created = Math.floor(Date.now() / 1000);
  const answer = 'The capital of France is Paris. '.repeat(40);
  // Concurrent adds share index writes (the store batches them); a hundred at a time.
  for (let start = 0; start < count; start += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - start) }, (_, offset) => {
        const position = start + offset;
        return store.add(
          createRecoveryRecord({
            requestId: `bench-${String(position).padStart(5, '0')}`,
            createdAt: created - position,
            interruptedReason: position % 3 === 0 ? 'upstream_error' : 'client_disconnected',
            user: `user-${position % 4}`,
            model: 'gpt-4o-mini',
            protocol: 'openai-chat',
            provider: 'openai',
            requestBodyText: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `question ${position}` }] }),
            responseBodyText: JSON.stringify({ id: `chatcmpl-${position}`, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: null }] }),
          }),
        );
      }),
    );
  }
  await store.close();
}

/** `count` entries over the last week, five upstreams (one with no known price), seven users, as the server writes them. */
async function seedRequestLog(directory, count) {
  const { RequestLogWriter } = await import('../../dist/log/request-log-writer.js');
  const writer = new RequestLogWriter({ directory, maxAgeMs: 30 * 86_400_000, maxBytes: 200 * 2 ** 20 });
  const models = ['anthropic/claude-sonnet-4-5', 'openai/gpt-4o', 'gemini/gemini-2.5-flash', 'ollama/llama3', 'mock/mock-echo'];
  const start = Date.now() - 7 * 86_400_000;
  const step = Math.floor((7 * 86_400_000) / count);
  for (let index = 0; index < count; index += 1) {
    const upstream = models[index % models.length];
    writer.append({
      request_id: `req-${index}`, time: new Date(start + index * step).toISOString(), user: `user-${index % 7}`, protocol: 'anthropic-messages',
      endpoint: '/v1/messages', model: upstream, upstream, attempts: 1, mode: 'passthrough', status: 200, stream: true, duration_ms: 900, ttfb_ms: 200,
      input_tokens: 1200 + (index % 100), output_tokens: 300, cached_tokens: 800, cache_write_tokens: null, reasoning_tokens: null,
      cost_usd: upstream.startsWith('ollama') ? null : upstream.startsWith('mock') ? 0 : 0.0042, interrupted_reason: null, resumed_from: null, warnings: [], user_agent: 'claude-cli/2.0',
    });
    if (index % 10_000 === 9_999) await writer.flush();
  }
  await writer.close();
}

const failureText = (result) => `exit ${result.status ?? result.signal}: ${`${result.stderr ?? ''}${result.stdout ?? ''}`.replace(/\s+/g, ' ').slice(0, 200)}`;

export async function runCliScenarios({ scenarios, settings, log }) {
  const results = {};
  const node = timeRuns(['-e', '0'], {}, settings.cliRuns, settings.cliUnmeasuredRuns);
  log(`  node -e 0: ${node.wallMs?.toFixed(0)} ms`);
  const reference = { wallMs: node.wallMs };
  const make = (scenario, timed, extra = {}) =>
    timed.failed
      ? { id: scenario.id, group: 'cli', description: scenario.description, metrics: scenario.metrics, status: 'unavailable', reason: failureText(timed.failed) }
      : { id: scenario.id, group: 'cli', description: scenario.description, metrics: scenario.metrics, status: 'ok', reference, gateway: { wallMs: timed.wallMs }, ratios: { wallMs: timed.wallMs / reference.wallMs }, walls: timed.walls, ...extra };

  for (const scenario of scenarios) {
    if (scenario.id === 'cli.help') {
      const timed = timeRuns([BIN, '--help'], {}, settings.cliRuns, settings.cliUnmeasuredRuns);
      results[scenario.id] = make(scenario, timed);
      log(`  gateway --help: ${timed.failed ? failureText(timed.failed) : `${timed.wallMs.toFixed(0)} ms`}`);
    }
    if (scenario.id === 'cli.recoveries-ls') {
      const home = await mkdtemp(join(tmpdir(), 'switchyard-bench-cli-'));
      try {
        const seedStarted = performance.now();
        await seedStore(join(home, 'recoveries'), settings.cliRecords);
        const seedSeconds = (performance.now() - seedStarted) / 1000;
        const timed = timeRuns([BIN, 'recoveries', 'ls'], { SWITCHYARD_HOME: home }, settings.cliRuns, settings.cliUnmeasuredRuns);
        const listed = timed.first ? (timed.first.stdout.match(/bench-\d{5}/g) ?? []).length : 0;
        results[scenario.id] = make(scenario, timed, { records: settings.cliRecords, listed, seedSeconds });
        log(`  gateway recoveries ls (${settings.cliRecords} records, seeded in ${seedSeconds.toFixed(1)} s): ${timed.failed ? failureText(timed.failed) : `${timed.wallMs.toFixed(0)} ms, ${listed} ids printed`}`);
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    }
    if (scenario.id === 'cli.usage') {
      const home = await mkdtemp(join(tmpdir(), 'switchyard-bench-cli-'));
      try {
        const seedStarted = performance.now();
        await seedRequestLog(join(home, 'log'), settings.cliLogEntries);
        const seedSeconds = (performance.now() - seedStarted) / 1000;
        const timed = timeRuns([BIN, 'usage', '--json'], { SWITCHYARD_HOME: home }, settings.cliRuns, settings.cliUnmeasuredRuns);
        const summed = timed.first ? JSON.parse(timed.first.stdout).total.requests : 0;
        results[scenario.id] = make(scenario, timed, { entries: settings.cliLogEntries, summed, seedSeconds });
        // Fewer requests summed than entries written would be a fast wrong answer.
        if (!timed.failed && summed !== settings.cliLogEntries) results[scenario.id].budgetBlocked = `${summed} requests summed of ${settings.cliLogEntries} entries`;
        log(`  gateway usage (${settings.cliLogEntries} entries, written in ${seedSeconds.toFixed(1)} s): ${timed.failed ? failureText(timed.failed) : `${timed.wallMs.toFixed(0)} ms, ${summed} requests summed`}`);
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    }
  }
  return results;
}
