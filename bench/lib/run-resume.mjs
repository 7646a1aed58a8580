// `resume.passthrough.c10`: passthrough throughput of a gateway whose recoveries store holds 1,000
// records that could answer a retry (complete, drained, unused, in the resume window) but none
// this request, against the same gateway with an empty store, measured in alternating order in
// each round. In the table the "reference" column is the empty store, the "gateway" column the
// full one, and the ratio is full ÷ empty (docs/recoveries.md, "Resume on retry": a request with
// no record to resume from pays nothing measurable).
//
// The records belong to 100 users, 10 each; one of them is the benchmark client's own user, whose
// 10 records are of another model: the gateway looks through them and hashes no body. (A user with
// a record of the same model and protocol in the window has each request's body hashed until it is
// used or the window ends: about 10-20 µs for this 1.4 KB body, more for an agent's long ones.)
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clientRequest } from './bodies.mjs';
import { PATHS } from './catalog.mjs';
import { closedLoop } from './load.mjs';
import { measuredScenario } from './stats.mjs';

const USERS = 100;

/** The user the gateway makes of the benchmark's key in local mode (src/server/authenticate.ts). */
const benchUser = (key) => `local-${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;

async function seedResumableRecords(directory, count, request) {
  const { openRecoveryStore } = await import('../../dist/recoveries/recovery-store.js');
  const { createRecoveryRecord } = await import('../../dist/recoveries/recovery-record.js');
  const store = await openRecoveryStore({ directory, maxRecords: count + 1000 });
  const created = Math.floor(Date.now() / 1000);
  const key = /Bearer (.+)/.exec(request.headers.authorization ?? '')?.[1] ?? 'bench-key';
  const body = JSON.parse(request.body);
  const answer = 'The capital of France is Paris. '.repeat(40);
  // Concurrent adds share index writes (the store batches them); a hundred at a time.
  for (let start = 0; start < count; start += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - start) }, (_, offset) => {
        const position = start + offset;
        const own = position % USERS === 0;
        return store.add(
          createRecoveryRecord({
            requestId: `resume-${String(position).padStart(5, '0')}`,
            createdAt: created,
            interruptedReason: 'client_disconnected',
            user: own ? benchUser(key) : `user-${position % USERS}`,
            model: own ? `${body.model}-other` : body.model,
            protocol: 'openai-chat',
            provider: 'up',
            requestBodyText: JSON.stringify(Object.assign({}, body, { messages: [{ role: 'user', content: `question ${position}` }] })),
            responseBodyText: JSON.stringify({ id: `chatcmpl-${position}`, object: 'chat.completion', created, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }] }),
          }),
        );
      }),
    );
  }
  await store.close();
}

export async function runResumeScenario({ scenario, settings, startGateway, log }) {
  const path = PATHS[scenario.path];
  const requestToSend = clientRequest(path.client, path.model, false);
  const records = settings.resumeRecords ?? 1000;
  const concurrency = Math.min(scenario.concurrency, settings.maxConcurrency ?? scenario.concurrency);
  const seedStarted = performance.now();
  const empty = await startGateway();
  let full;
  try {
    full = await startGateway((home) => seedResumableRecords(join(home, 'recoveries'), records, requestToSend));
    log(`  ${records} resumable records seeded and the gateways started in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
    const measure = async (gateway, warm = settings.warmupMs, duration = settings.durationMs) => {
      const result = await closedLoop({ url: gateway.url, request: requestToSend, concurrency, warmupMs: warm, durationMs: duration, cpuOf: gateway.cpuSeconds });
      return { rps: result.rps, cpuUsPerRequest: result.cpuUsPerRequest, p50Ms: result.p50Ms, errors: result.errors, requests: result.requests };
    };
    if (settings.warmupPassMs > 0) {
      await measure(empty, 0, settings.warmupPassMs);
      await measure(full, 0, settings.warmupPassMs);
    }
    const rounds = [];
    for (let round = 0; round < settings.rounds; round += 1) {
      let withoutRecords;
      let withRecords;
      // Empty first in even rounds, last in odd ones: a slow drift of the machine hits both.
      if (round % 2 === 0) {
        withoutRecords = await measure(empty);
        withRecords = await measure(full);
      } else {
        withRecords = await measure(full);
        withoutRecords = await measure(empty);
      }
      rounds.push({ reference: withoutRecords, gateway: withRecords, ratios: Object.fromEntries(scenario.metrics.map((metric) => [metric, withRecords[metric] / withoutRecords[metric]])) });
      log(
        `  round ${round + 1}/${settings.rounds}: empty store ${Math.round(withoutRecords.rps)} req/s, ${Math.round(withoutRecords.cpuUsPerRequest)} µs CPU/req; ` +
          `${records} records ${Math.round(withRecords.rps)} req/s, ${Math.round(withRecords.cpuUsPerRequest)} µs CPU/req`,
      );
    }
    const errors = rounds.reduce((sum, round) => sum + (round.gateway.errors ?? 0) + (round.reference.errors ?? 0), 0);
    return Object.assign(
      measuredScenario(scenario, rounds),
      { records },
      errors > 0 ? { reason: `${errors} failed requests during the measurement` } : {},
    );
  } finally {
    await full?.stop();
    await empty.stop();
  }
}
