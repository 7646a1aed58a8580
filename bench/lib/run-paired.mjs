// Scenarios that compare the gateway with itself in two setups, passthrough non-stream at c=10,
// measured in alternating order in each round (a slow drift of the machine hits both sides):
// - `log.passthrough.c10`: the request log on (the default) against a gateway with
//   `log.enabled: false`, the stderr line on both as by default;
// - `log.and-line.passthrough.c10`: the request log and the stderr line on (the default) against a
//   gateway with `log.enabled: false` and `--quiet`: what the two cost together (not budgeted);
// - `routing.chain-healthy-first`: a three-entry fallback chain whose first entry is healthy
//   against the same provider and model asked for directly;
// - `routing.pool-one-limited`: a pool of three keys, one answered 429 for an hour, against a pool
//   of three healthy keys;
// - `team.postgres.passthrough.c10`: the store on PostgreSQL against the default file store, no
//   recovery made (bench/lib/run-team.mjs starts the two gateways and makes the database).
// In the table the "reference" column is the side without the feature, the "gateway" column the
// side with it, and the ratio is with ÷ without.
import { clientRequest } from './bodies.mjs';
import { closedLoop, probe } from './load.mjs';
import { settle } from './settle.mjs';
import { measuredScenario } from './stats.mjs';

/** Each scenario's two sides: the model asked for, and which gateway (`on`, `logOff`, `off`, `routing`, `postgres` or `files`) serves it. */
export const PAIRS = {
  'log.passthrough.c10': { measured: { gateway: 'on', model: 'm' }, against: { gateway: 'logOff', model: 'm' } },
  'log.and-line.passthrough.c10': { measured: { gateway: 'on', model: 'm' }, against: { gateway: 'off', model: 'm' } },
  'routing.chain-healthy-first': { measured: { gateway: 'routing', model: 'chain' }, against: { gateway: 'routing', model: 'up/m' } },
  'routing.pool-one-limited': { measured: { gateway: 'routing', model: 'limited/m' }, against: { gateway: 'routing', model: 'healthy/m' } },
  'team.postgres.passthrough.c10': { measured: { gateway: 'postgres', model: 'm' }, against: { gateway: 'files', model: 'm' } },
};

/** `gateways`: the running gateways by the names `PAIRS` uses. */
export async function runPairedScenario({ scenario, settings, gateways, log }) {
  const pair = PAIRS[scenario.id];
  const concurrency = Math.min(scenario.concurrency, settings.maxConcurrency ?? scenario.concurrency);
  const sides = [pair.measured, pair.against].map((side) => ({ service: gateways[side.gateway], request: clientRequest('openai-chat', side.model, false) }));
  for (const side of sides) {
    const answer = await probe(side.service.url, side.request);
    if (answer.status !== 200) {
      return { id: scenario.id, group: scenario.group, description: scenario.description, metrics: scenario.metrics, status: 'unavailable', reason: `HTTP ${answer.status}: ${answer.text.replace(/\s+/g, ' ').slice(0, 160)}` };
    }
  }
  const measure = async ({ service, request }, warm = settings.warmupMs, duration = settings.durationMs) => {
    // A gateway on a database (bench/lib/run-team.mjs) has the database server's CPU read at the
    // same edges of the window as its own; the other side has none.
    const database = scenario.metrics.includes('dbCpuUsPerRequest') ? service.databaseCpu : undefined;
    await database?.refresh();
    const databaseEdges = [];
    const cpuOf = () => {
      if (database) databaseEdges.push(database.seconds());
      return service.cpuSeconds();
    };
    const result = await closedLoop({ url: service.url, request, concurrency, warmupMs: warm, durationMs: duration, cpuOf });
    const measured = { rps: result.rps, cpuUsPerRequest: result.cpuUsPerRequest, p50Ms: result.p50Ms, errors: result.errors, requests: result.requests, firstError: result.firstError };
    if (scenario.metrics.includes('dbCpuUsPerRequest')) measured.dbCpuUsPerRequest = database ? ((databaseEdges[1] - databaseEdges[0]) / result.requests) * 1e6 : 0;
    return measured;
  };
  if (settings.warmupPassMs > 0) {
    const passes = await settle(sides, (side) => measure(side, 0, settings.warmupPassMs));
    log(`  ${scenario.id}: ${passes} warm passes a side before the rounds`);
  }
  const rounds = [];
  for (let round = 0; round < settings.rounds; round += 1) {
    let withFeature;
    let without;
    if (round % 2 === 0) {
      without = await measure(sides[1]);
      withFeature = await measure(sides[0]);
    } else {
      withFeature = await measure(sides[0]);
      without = await measure(sides[1]);
    }
    rounds.push({ reference: without, gateway: withFeature, ratios: Object.fromEntries(scenario.metrics.map((metric) => [metric, withFeature[metric] / without[metric]])) });
    const database = withFeature.dbCpuUsPerRequest === undefined ? '' : ` (+ ${Math.round(withFeature.dbCpuUsPerRequest)} µs of the database's)`;
    log(`  ${scenario.id} round ${round + 1}/${settings.rounds}: with ${Math.round(withFeature.rps)} req/s, ${Math.round(withFeature.cpuUsPerRequest)} µs CPU/req${database}; without ${Math.round(without.rps)} req/s, ${Math.round(without.cpuUsPerRequest)} µs CPU/req`);
  }
  const errors = rounds.reduce((sum, round) => sum + round.gateway.errors + round.reference.errors, 0);
  const firstError = rounds.map((round) => round.gateway.firstError ?? round.reference.firstError).find(Boolean);
  return Object.assign(
    {
      ...measuredScenario(scenario, rounds),
    },
    errors > 0 ? { reason: `${errors} failed requests during the measurement (${firstError})` } : {},
  );
}
