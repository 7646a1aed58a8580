// The request log's own costs, apart from the request path (node bench/request-log.mjs, after a build):
//   - appending 100,000 entries through the writer: heap before and after (it must stay flat: the
//     queue is written and dropped every 100 ms);
//   - `gateway usage` and `gateway usage --json` over those 100,000 entries, as a user runs it
//     (a new process each time, the wall time of the whole command).
// Options: --entries N (default 100000), --runs N (default 3).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RequestLogWriter } from '../dist/log/request-log-writer.js';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const count = option('--entries', 100_000);
const runs = option('--runs', 3);
const bin = fileURLToPath(new URL('../bin/gateway.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'switchyard-bench-log-'));
const models = ['anthropic/claude-sonnet-4-5', 'openai/gpt-4o', 'gemini/gemini-2.5-flash', 'ollama/llama3', 'mock/mock-echo'];

const writer = new RequestLogWriter({ directory: join(home, 'log'), maxAgeMs: 30 * 86_400_000, maxBytes: 200 * 2 ** 20 });
const start = Date.now() - 7 * 86_400_000;
const heap = () => {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed;
};
const before = heap();
let peak = before;
for (let index = 0; index < count; index += 1) {
  const upstream = models[index % models.length];
  writer.append({
    request_id: `req-${index}`, time: new Date(start + index * 6000).toISOString(), user: `user-${index % 7}`, protocol: 'anthropic-messages',
    endpoint: '/v1/messages', model: upstream, upstream, attempts: 1, mode: 'passthrough', status: 200, stream: true, duration_ms: 900, ttfb_ms: 200,
    input_tokens: 1200 + (index % 100), output_tokens: 300, cached_tokens: 800, cache_write_tokens: null, reasoning_tokens: null,
    cost_usd: upstream.startsWith('ollama') ? null : upstream.startsWith('mock') ? 0 : 0.0042, interrupted_reason: null, warnings: [], user_agent: 'claude-cli/2.0',
  });
  // As a server does: requests come over time, and the writer's timer runs between them.
  if (index % 1000 === 999) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (index % 10_000 === 9_999) await writer.flush();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
}
await writer.close();
const after = heap();
console.log(`log.append ${count} entries: heap before ${(before / 2 ** 20).toFixed(1)} MB, peak ${(peak / 2 ** 20).toFixed(1)} MB, after ${(after / 2 ** 20).toFixed(1)} MB`);

for (const extra of [[], ['--json'], ['--by', 'day']]) {
  const times = [];
  for (let run = 0; run < runs; run += 1) {
    const began = process.hrtime.bigint();
    execFileSync(process.execPath, [bin, 'usage', ...extra], { env: { PATH: process.env.PATH, SWITCHYARD_HOME: home }, stdio: ['ignore', 'ignore', 'inherit'] });
    times.push(Number(process.hrtime.bigint() - began) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(`cli.usage ${['gateway usage', ...extra].join(' ')} over ${count} entries: median ${times[Math.floor(times.length / 2)].toFixed(0)} ms (budget < 1000 ms)`);
}
rmSync(home, { recursive: true, force: true });
