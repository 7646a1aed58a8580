// Team mode (docs/team.md): the store on PostgreSQL.
// - `team.postgres.passthrough.c10`: passthrough throughput of a gateway whose store is a database of
//   its own on the server, against the same gateway with the default file store, measured in
//   alternating order in each round (bench/lib/run-paired.mjs). Requests that complete make no
//   recovery: what is measured is the rest of a team's setup, as it runs. Each request's log
//   entry goes to the database (batched every 100 ms) instead of a file, and the instance looks
//   once a second for other instances' resumable records and key states. The database server's
//   own CPU for that database is read next to the gateway's (`dbCpuUsPerRequest`).
// - `team.postgres.record-write`: the latency of a record's writes with 100,000 rows in the table
//   against 10 (bench/postgres-store.mjs, its own process on the compiled store).
// Both need a server: `postgres` (bench/lib/team-database.mjs) finds or starts it once for the run;
// without one they are unavailable, with the reason.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { writeGatewayConfig } from './gateway-config.mjs';
import { runPairedScenario } from './run-paired.mjs';
import { measuredScenario } from './stats.mjs';

const SCRIPT = fileURLToPath(new URL('../postgres-store.mjs', import.meta.url));

const unavailable = (scenario, reason) => ({ id: scenario.id, group: scenario.group, description: scenario.description, metrics: scenario.metrics, status: 'unavailable', reason });

/**
 * `startGateway(name, variant)` starts a gateway (`variant`: its `configFile` and `env`);
 * `configFile`: where the PostgreSQL gateway's config goes.
 */
export async function runTeamThroughputScenario({ scenario, settings, postgres, upstreamUrl, configFile, startGateway, log }) {
  const server = await postgres.get();
  if (server.reason) return unavailable(scenario, server.reason);
  const database = await postgres.createDatabase();
  const gateways = {};
  try {
    await writeGatewayConfig(configFile, upstreamUrl, { store: 'postgres' });
    // Started together, and both up before either is measured. A start that fails (the database
    // refused, a migration failed) makes the line unavailable, with the gateway's words.
    const starting = await Promise.allSettled([
      startGateway('gateway', {}).then((gateway) => (gateways.files = gateway)),
      startGateway('gateway on PostgreSQL', { configFile, env: { DATABASE_URL: database.url } }).then((gateway) => (gateways.postgres = gateway)),
    ]);
    const failed = starting.find((outcome) => outcome.status === 'rejected');
    if (failed) return unavailable(scenario, `a gateway did not start: ${String(failed.reason?.message ?? failed.reason).replace(/\s+/g, ' ').slice(0, 300)}`);
    gateways.postgres.databaseCpu = postgres.databaseCpu(database.name);
    log(`  PostgreSQL ${server.version} (${server.origin}), database ${database.name}`);
    const result = await runPairedScenario({ scenario, settings, gateways, log });
    // The line is about a store that is not written to: say so if a record was made after all.
    const made = await countRecords(database.url);
    return Object.assign(result, { recordsMade: made, postgres: { version: server.version, origin: server.origin } }, made > 0 && !result.reason ? { reason: `${made} recovery records were made during the measurement` } : {});
  } finally {
    for (const gateway of Object.values(gateways)) await gateway.stop();
    await database.drop();
  }
}

async function countRecords(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query('SELECT count(*) AS count FROM switchyard_recoveries')).rows[0].count);
  } finally {
    await client.end();
  }
}

function runScript(env, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT, '--json'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data) => (stdout += data));
    child.stderr.on('data', (data) => (stderr += data));
    // SIGTERM first: the script drops its databases on its way out (the runner drops what is left).
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs + 40_000);
    // A runner stopped (Ctrl-C) stops the script too, which then drops its databases.
    const stop = () => child.kill('SIGTERM');
    process.once('exit', stop);
    child.on('close', (code, signal) => {
      process.off('exit', stop);
      clearTimeout(timer);
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Rounds of the script: the 10-row table as the reference column, the full one as the gateway column. */
export async function runRecordWriteScenario({ scenario, settings, postgres, log }) {
  const server = await postgres.get();
  if (server.reason) return unavailable(scenario, server.reason);
  const env = { ...settings.team, ROUNDS: String(settings.rounds), DATABASE_URL: server.url, SWITCHYARD_BENCH_DB_PREFIX: `${postgres.prefix}_store` };
  const outcome = await runScript(env, settings.teamTimeoutMs);
  for (const line of outcome.stderr.split('\n').filter(Boolean)) log(line);
  let report;
  try {
    report = JSON.parse(outcome.stdout.trim().split('\n').at(-1));
  } catch {
    // Reported below with the script's last words.
  }
  if (outcome.code !== 0 || !report) {
    const why = outcome.signal ? `stopped (${outcome.signal}) after ${settings.teamTimeoutMs} ms` : `exit ${outcome.code}`;
    return unavailable(scenario, `bench/postgres-store.mjs failed (${why}): ${(outcome.stderr || outcome.stdout).replace(/\s+/g, ' ').slice(-300)}`);
  }
  const rounds = report.rounds.map(({ small, large }) => ({ reference: small, gateway: large, ratios: Object.fromEntries(scenario.metrics.map((metric) => [metric, large[metric] / small[metric]])) }));
  const { rows, smallRows, adds, refreshes, seedSeconds, tableMb } = report;
  return Object.assign(measuredScenario(scenario, rounds), { rows, smallRows, adds, refreshes, seedSeconds, tableMb, postgres: report.server });
}
