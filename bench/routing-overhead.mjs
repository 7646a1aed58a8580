#!/usr/bin/env node
// What routing costs when nothing fails, and what a rate-limited key of a pool costs the others:
// passthrough non-stream throughput (c=10) of a three-entry fallback chain whose first entry is
// healthy against the same request with no chain (budget ≥ 0.98), and of a pool of three keys, one
// answered 429 with a long retry-after, against all three healthy (budget ≥ 0.95). Rounds
// alternate the order of the two sides; the ratio is the median of paired ratios.
//
//   npm run build && node bench/routing-overhead.mjs [--rounds 5] [--ms 2000]
import { createServer } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientRequest, jsonAnswer } from './lib/bodies.mjs';
import { closedLoop } from './lib/load.mjs';
import { startService } from './lib/processes.mjs';

const argument = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const rounds = argument('--rounds', 5);
const durationMs = argument('--ms', 2000);
const LIMITED_KEY = 'upstream-key-limited';

const answer = Buffer.from(jsonAnswer('openai-chat'));
const upstream = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    if (request.headers.authorization === `Bearer ${LIMITED_KEY}`) {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
      response.end('{"error":{"message":"rate limited","type":"rate_limit"}}');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
    response.end(answer);
  });
});
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${upstream.address().port}/v1`;

const scratch = await mkdtemp(join(tmpdir(), 'switchyard-routing-bench-'));
const provider = (apiKey) => ({ type: 'openai-chat', baseURL: upstreamUrl, apiKey, models: [], discoverModels: false });
const configFile = join(scratch, 'config.json');
await writeFile(
  configFile,
  JSON.stringify({
    providers: {
      up: provider('upstream-key'),
      second: provider('upstream-key'),
      third: provider('upstream-key'),
      healthy: provider(['upstream-key-a', 'upstream-key-b', 'upstream-key-c']),
      limited: provider(['upstream-key-a', LIMITED_KEY, 'upstream-key-c']),
      mock: false,
    },
    aliases: { chain: ['up/m', 'second/m', 'third/m'] },
  }),
);
const gateway = await startService({
  name: 'gateway',
  args: [join(import.meta.dirname, '..', 'bin', 'gateway.js'), 'serve', '--port', '0', '--quiet', '--config', configFile],
  env: { SWITCHYARD_HOME: join(scratch, 'home') },
});

const measure = (model) =>
  closedLoop({ url: gateway.url, request: clientRequest('openai-chat', model, false), concurrency: 10, warmupMs: 300, durationMs, cpuOf: () => 0 });

const lines = [
  { id: 'routing.chain-healthy-first', model: 'chain', against: 'up/m', budget: 0.98 },
  { id: 'routing.pool-one-limited', model: 'limited/m', against: 'healthy/m', budget: 0.95 },
];
try {
  for (const line of lines) {
    await measure(line.model);
    await measure(line.against);
    const ratios = [];
    for (let round = 0; round < rounds; round += 1) {
      const first = round % 2 === 0;
      const a = first ? await measure(line.model) : undefined;
      const b = await measure(line.against);
      const measured = a ?? (await measure(line.model));
      if (measured.errors > 0 || b.errors > 0) throw new Error(`${line.id}: ${measured.firstError ?? b.firstError}`);
      ratios.push(measured.rps / b.rps);
      console.error(`  ${line.id} round ${round + 1}: ${measured.rps.toFixed(0)} vs ${b.rps.toFixed(0)} req/s`);
    }
    ratios.sort((left, right) => left - right);
    const median = ratios[Math.floor(ratios.length / 2)];
    console.log(`${line.id}  throughput ratio ${median.toFixed(3)}  budget ≥ ${line.budget}  ${median >= line.budget ? 'PASS' : 'MISS'}`);
  }
} finally {
  await gateway.stop();
  upstream.close();
}
