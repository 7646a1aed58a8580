#!/usr/bin/env node
// `npm run bench`: Switchyard against the thinnest Node pass-through proxy, on loopback, in the
// same run. See bench/README.md for what each scenario measures and how.
//
//   node bench/run.js [--quick] [--only <id|prefix|glob>]... [--rounds N] [--out FILE]
//                     [--cpu-prof DIR] [--baseline DIR] [--no-floor] [--no-pin] [--markdown] [--list]
//
// Needs dist/ (npm run bench builds it first). Exits 0 when the suite ran, whatever the budget
// says: a MISS is a finding, not a crash. Exits 1 when the suite itself could not run.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isSelected, isTranslated, listScenarios } from './lib/catalog.mjs';
import { writeGatewayConfig } from './lib/gateway-config.mjs';
import { findTaskset, pinSelf, startService } from './lib/processes.mjs';
import { BASELINE_COLUMNS, baselineRows, evaluateBudget, FLOOR_COLUMNS, floorRows, formatBudgetValue, formatMarkdownTable, formatTextTable, tableRows } from './lib/report.mjs';
import { runCliScenarios } from './lib/run-cli.mjs';
import { runInspectorScenario } from './lib/run-inspector.mjs';
import { runLogMemoryScenario } from './lib/run-log-memory.mjs';
import { runMemoryGroup } from './lib/run-memory.mjs';
import { PAIRS, runPairedScenario } from './lib/run-paired.mjs';
import { runRecoveriesScenario } from './lib/run-recoveries.mjs';
import { runResidentScenario } from './lib/run-resident.mjs';
import { runResumeScenario } from './lib/run-resume.mjs';
import { runRecordWriteScenario, runTeamThroughputScenario } from './lib/run-team.mjs';
import { runThroughputGroup } from './lib/run-throughput.mjs';
import { postgresServer } from './lib/team-database.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BENCH = join(ROOT, 'bench');

const FULL = {
  rounds: 5,
  warmupPassMs: 1000,
  // The stream group's pass at its highest concurrency (c=100: about 3,500 streams a path).
  streamWarmupPassMs: 4000,
  warmupMs: 250,
  durationMs: 900,
  streamWarmupMs: 250,
  streamDurationMs: 1000,
  streamEvents: 20,
  streamDelayMs: 5,
  memoryRounds: 3,
  memoryCounts: { 100: 100, 1000: 1000 },
  slowEvents: 5,
  slowIntervalMs: 600,
  memorySlackMs: 2000,
  memoryProbe: true,
  residentWarmupMs: 1000,
  // Time for a started process to finish what it does after it says it is listening, and for a
  // warmed one to finish its last requests.
  residentSettleMs: 500,
  store: { STORED: '100', BODY_MB: '5', ADDS: '20' },
  storeTimeoutMs: 180_000,
  cliRuns: 7,
  cliUnmeasuredRuns: 1,
  cliRecords: 1000,
  resumeRecords: 1000,
  cliLogEntries: 100_000,
  logMemoryRequests: 100_000,
  logMemoryDeadlineMs: 600_000,
  // bench/postgres-store.mjs: rows in the full table and in the small one, writes of each kind a round.
  team: { ROWS: '100000', SMALL_ROWS: '10', ADDS: '200', REFRESHES: '200' },
  teamTimeoutMs: 600_000,
};

// Tiny counts and durations: every scenario runs once, end to end, fast enough for the test
// suite (a few seconds). No warm round, concurrency capped at 10, windows of a few requests.
// Numbers from a quick run mean nothing.
const QUICK = {
  rounds: 1,
  warmupPassMs: 0,
  streamWarmupPassMs: 0,
  warmupMs: 0,
  durationMs: 30,
  streamWarmupMs: 0,
  streamDurationMs: 30,
  streamEvents: 3,
  streamDelayMs: 0,
  maxConcurrency: 10,
  memoryRounds: 1,
  memoryCounts: { 100: 4, 1000: 8 },
  slowEvents: 2,
  slowIntervalMs: 30,
  // A fresh gateway's first streams on a busy CI machine: the first bytes can take seconds.
  memorySlackMs: 10_000,
  memoryProbe: false,
  residentWarmupMs: 20,
  residentSettleMs: 50,
  store: { STORED: '1', BODY_MB: '1', ADDS: '1' },
  storeTimeoutMs: 60_000,
  cliRuns: 1,
  cliUnmeasuredRuns: 0,
  cliRecords: 5,
  resumeRecords: 100,
  cliLogEntries: 100,
  logMemoryRequests: 200,
  logMemoryDeadlineMs: 60_000,
  team: { ROWS: '1000', SMALL_ROWS: '10', ADDS: '10', REFRESHES: '10' },
  teamTimeoutMs: 60_000,
};

const USAGE = `usage: node bench/run.js [options]
  --quick            tiny durations and counts (the smoke test); the numbers mean nothing
  --only <pattern>   only these scenarios: an id, a prefix (stream, nonstream.passthrough) or a
                     glob (stream.*.c100); repeatable or comma-separated
  --rounds <n>       interleaved rounds per scenario (default 5, quick 1)
  --out <file>       where the JSON goes (default bench/results/latest.json; quick.json with
                     --quick, partial.json with --only)
  --cpu-prof <dir>   run the gateway (and the reference proxy) of the non-stream and stream
                     scenarios under node --cpu-prof: profiles in <dir> (and <dir>/reference);
                     read them with node bench/analyze-profile.mjs <dir>
  --baseline <dir>   also run the gateway of another built checkout of this project (its
                     bin/gateway.js) in the same rounds of the non-stream and stream scenarios,
                     and report this build against it, paired round by round
  --no-floor         do not measure the thinnest translator (bench/thin-translator.mjs) next to
                     the translated non-stream and stream scenarios
  --no-pin           do not pin processes to cores
  --markdown         print the table as markdown (for bench/README.md)
  --list             list the scenario ids and exit
  --report <file>    print the table and budget of an earlier results file (with --markdown for
                     bench/README.md) and exit; nothing is measured`;

function parseOptions() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
      rounds: { type: 'string' },
      out: { type: 'string' },
      'cpu-prof': { type: 'string' },
      baseline: { type: 'string' },
      'no-floor': { type: 'boolean', default: false },
      'no-pin': { type: 'boolean', default: false },
      markdown: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      report: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: false,
  });
  const only = (values.only ?? []).flatMap((value) => value.split(',')).map((value) => value.trim()).filter(Boolean);
  const settings = { ...(values.quick ? QUICK : FULL) };
  if (values.rounds !== undefined) {
    const rounds = Number(values.rounds);
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > 50) throw new Error(`--rounds: expected 1 to 50, got ${values.rounds}`);
    settings.rounds = rounds;
    settings.memoryRounds = Math.min(settings.memoryRounds, rounds);
  }
  let baselineBin;
  if (values.baseline !== undefined) {
    baselineBin = join(values.baseline, 'bin', 'gateway.js');
    if (!existsSync(baselineBin) || !existsSync(join(values.baseline, 'dist', 'cli', 'main.js'))) {
      throw new Error(`--baseline: ${values.baseline} is not a built checkout of this project (no bin/gateway.js or dist/; run npm install there)`);
    }
  }
  const out = values.out ?? join(BENCH, 'results', values.quick ? 'quick.json' : only.length > 0 ? 'partial.json' : 'latest.json');
  return { ...values, only, settings, out, baselineBin };
}

const log = (line) => process.stderr.write(`${line}\n`);

/** Every child process started, so that any exit of the runner takes them down too. */
const started = new Set();
/** The PostgreSQL server of the team scenarios: the databases made on it are dropped on any exit. */
let postgres;
process.on('exit', () => {
  for (const service of started) service.kill();
  postgres?.closeSync();
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`bench: ${signal}, stopping`);
    process.exit(130);
  });
}

async function track(promise) {
  const service = await promise;
  started.add(service);
  const stop = service.stop.bind(service);
  const kill = service.kill.bind(service);
  service.stop = (...args) => stop(...args).finally(() => started.delete(service));
  service.kill = () => kill().finally(() => started.delete(service));
  return service;
}

function printReport(report, rows, budget, markdown) {
  const { machine, settings } = report;
  console.log(
    `\nSwitchyard bench: ${machine.cores} cores, ${machine.cpu}, node ${machine.node}, ${machine.date.slice(0, 10)}, load average ${machine.loadAverageAtStart?.[0]} → ${machine.loadAverageAtEnd?.[0]}; ` +
      `${settings.rounds} rounds${report.quick ? ' (QUICK: the numbers mean nothing)' : ''}`,
  );
  console.log(markdown ? formatMarkdownTable(rows) : formatTextTable(rows));
  const versusBaseline = baselineRows(report.scenarios);
  if (versusBaseline.length > 0) {
    console.log(`\nThis build against the baseline (${report.baseline}), paired round by round:`);
    console.log(markdown ? formatMarkdownTable(versusBaseline, BASELINE_COLUMNS) : formatTextTable(versusBaseline, BASELINE_COLUMNS));
  }
  const versusFloor = floorRows(report.scenarios);
  if (versusFloor.length > 0) {
    console.log('\nTranslated paths on the thinnest translator (bench/thin-translator.mjs, the floor), paired round by round:');
    console.log(markdown ? formatMarkdownTable(versusFloor, FLOOR_COLUMNS) : formatTextTable(versusFloor, FLOOR_COLUMNS));
  }
  console.log('\nBudget (translated lines against the floor, gateway ÷ floor; first bytes at c=10 in ms over the reference; the rest against the reference):');
  for (const line of budget) {
    if (line.verdict === 'SKIPPED') continue;
    console.log(`  ${line.verdict.padEnd(7)} ${line.id} ${line.metric} = ${formatBudgetValue(line)} (budget ${line.text})${line.note ? `: ${line.note}` : ''}`);
  }
  const counts = budget.reduce((tally, line) => ({ ...tally, [line.verdict]: (tally[line.verdict] ?? 0) + 1 }), {});
  console.log(`\n${Object.entries(counts).map(([verdict, count]) => `${count} ${verdict}`).join(', ')}; ${report.durationSeconds} s`);
}

async function main() {
  let options;
  try {
    options = parseOptions();
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const catalog = listScenarios();
  if (options.report) {
    const report = JSON.parse(await readFile(options.report, 'utf8'));
    const budget = evaluateBudget(report.scenarios);
    printReport(report, tableRows(report.scenarios, budget), budget, options.markdown);
    return 0;
  }
  if (options.list) {
    for (const scenario of catalog) console.log(`${scenario.id.padEnd(34)} ${scenario.description}`);
    return 0;
  }
  const unknown = options.only.filter((pattern) => !catalog.some((scenario) => isSelected(scenario.id, [pattern])));
  if (unknown.length > 0) {
    console.error(`--only: no scenario matches ${unknown.join(', ')} (see --list)`);
    return 2;
  }

  const { settings } = options;
  const selected = catalog.filter((scenario) => isSelected(scenario.id, options.only));
  const cores = availableParallelism();
  // A quick run is not pinned: its phases run at once, and its numbers mean nothing anyway.
  const taskset = options['no-pin'] || options.quick || cores < 2 ? undefined : findTaskset();
  // The load generator and the fake upstream share core 0; the process measured gets core 1.
  const pinned = taskset ? pinSelf(taskset, 0) : false;
  const loadCpu = pinned ? 0 : undefined;
  const measuredCpu = pinned ? 1 : undefined;
  const machine = {
    cores,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString(),
    loadAverageAtStart: loadavg().map((value) => Number(value.toFixed(2))),
    pinning: pinned ? 'load generator + fake upstream on core 0; reference proxy and gateway on core 1' : 'none',
  };
  log(`bench: ${selected.length} of ${catalog.length} scenarios, ${options.quick ? 'quick' : 'full'} mode, ${settings.rounds} rounds; ${machine.cores} cores (${machine.cpu}), node ${machine.node}, pinning: ${machine.pinning}`);
  const suiteStarted = performance.now();

  const scratch = await mkdtemp(join(tmpdir(), 'switchyard-bench-'));
  // Found (DATABASE_URL) or started (.ci/postgres start) only when a team scenario asks for it; a
  // server started by a pinned runner would inherit its core, so it gets every core.
  postgres = postgresServer({ log, commandPrefix: pinned ? [taskset, '-c', `0-${cores - 1}`] : [] });
  const groupSeconds = {};
  const timed = async (group, work) => {
    const groupStarted = performance.now();
    try {
      return await work();
    } finally {
      groupSeconds[group] = Number(((performance.now() - groupStarted) / 1000).toFixed(1));
    }
  };
  const results = {};
  for (const scenario of catalog) {
    if (!selected.includes(scenario)) results[scenario.id] = { id: scenario.id, group: scenario.group, description: scenario.description, metrics: scenario.metrics, status: 'skipped' };
  }
  // The fake upstreams started, and a gateway config for each (the gateway's providers point at one).
  const upstreams = [];
  let gatewayCount = 0;
  const startUpstream = async () => {
    const upstream = await track(startService({ name: 'fake upstream', args: [join(BENCH, 'fake-upstream.mjs')], cpu: loadCpu, taskset }));
    upstreams.push(upstream);
    upstream.configFile = join(scratch, `config-${upstreams.length}.json`);
    await writeGatewayConfig(upstream.configFile, upstream.url);
    return upstream;
  };
  /** The processes a phase starts, all against its own `upstream`. */
  const launcherFor = (upstream) => ({
    // `variant`: `configFile` (another config than the upstream's), `quiet` (--quiet). The gateway
    // runs as users run it: no --quiet, its stderr to a file (`service.home`/stderr.log).
    // `env`: more of its environment (the PostgreSQL store's DATABASE_URL).
    async startGateway(profile = false, bin = join(ROOT, 'bin', 'gateway.js'), name = 'gateway', prepareHome = undefined, variant = {}) {
      gatewayCount += 1;
      const home = join(scratch, `home-${gatewayCount}`);
      await mkdir(home, { recursive: true });
      // What the gateway finds in its SWITCHYARD_HOME when it starts (the resume scenario's records).
      await prepareHome?.(home);
      const nodeArgs = profile && options['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${options['cpu-prof']}`] : [];
      const args = [bin, 'serve', '--port', '0', ...(variant.quiet ? ['--quiet'] : []), '--config', variant.configFile ?? upstream.configFile];
      const service = await track(startService({ name, args, nodeArgs, env: { ...variant.env, SWITCHYARD_HOME: home }, cpu: measuredCpu, taskset, stderrFile: join(home, 'stderr.log') }));
      return Object.assign(service, { home });
    },
    startReference(profile = false) {
      const nodeArgs = profile && options['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${join(options['cpu-prof'], 'reference')}`] : [];
      return track(startService({ name: 'reference proxy', args: [join(BENCH, 'reference-proxy.mjs'), '--upstream', upstream.url], nodeArgs, cpu: measuredCpu, taskset }));
    },
    startFloor: () => track(startService({ name: 'thin translator', args: [join(BENCH, 'thin-translator.mjs'), '--upstream', upstream.url], cpu: measuredCpu, taskset })),
  });

  const throughputPhase = async (upstream) => {
    const throughput = selected.filter((scenario) => scenario.group === 'nonstream' || scenario.group === 'stream');
    if (throughput.length === 0) return;
    const { startGateway, startReference, startFloor } = launcherFor(upstream);
    const reference = await startReference(true);
    const gateway = await startGateway(true);
    const baseline = options.baselineBin ? await startGateway(false, options.baselineBin, 'baseline gateway') : undefined;
    const floor = options['no-floor'] || !throughput.some(isTranslated) ? undefined : await startFloor();
    try {
      for (const group of ['nonstream', 'stream']) {
        const scenarios = throughput.filter((scenario) => scenario.group === group);
        if (scenarios.length === 0) continue;
        log(`bench: ${group} (${scenarios.length} scenarios)`);
        Object.assign(results, await timed(group, () => runThroughputGroup({ group, scenarios, settings, upstream, reference, gateway, baseline, floor, log })));
      }
    } finally {
      await reference.stop();
      await baseline?.stop();
      await floor?.stop();
      // A graceful stop, so that --cpu-prof writes its profile.
      const ended = await gateway.stop(20_000);
      if (options['cpu-prof']) log(`bench: gateway profile in ${options['cpu-prof']}, reference proxy profile in ${join(options['cpu-prof'], 'reference')} (gateway exit ${ended.code ?? ended.signal})`);
    }
  };
  const inspectorPhase = async (upstream) => {
    for (const scenario of selected.filter((candidate) => candidate.group === 'inspector')) {
      log('bench: inspector page open under load');
      const gateway = await launcherFor(upstream).startGateway();
      try {
        results[scenario.id] = await timed('inspector', () => runInspectorScenario({ scenario, settings, gateway, log }));
      } finally {
        await gateway.stop();
      }
    }
  };
  const resumePhase = async (upstream) => {
    for (const scenario of selected.filter((candidate) => candidate.group === 'resume')) {
      log('bench: resumable records in the store');
      const { startGateway } = launcherFor(upstream);
      results[scenario.id] = await timed('resume', () =>
        runResumeScenario({ scenario, settings, startGateway: (prepareHome) => startGateway(false, undefined, prepareHome ? 'gateway with records' : 'gateway', prepareHome), log }),
      );
    }
  };
  // Two setups of the gateway compared with each other: the request log on and off, routing and none.
  const pairedPhase = async (upstream) => {
    const paired = selected.filter((scenario) => scenario.group === 'paired');
    if (paired.length === 0) return;
    log(`bench: the request log and routing (${paired.length} scenarios)`);
    const { startGateway } = launcherFor(upstream);
    const gateways = {};
    const configFile = (name) => join(scratch, `config-${upstreams.indexOf(upstream) + 1}-${name}.json`);
    try {
      // Started together: none is measured before all are up.
      const starting = [];
      const pairedOn = (gateway) => paired.some((scenario) => scenario.id.startsWith('log.') && PAIRS[scenario.id].against.gateway === gateway);
      if (pairedOn('logOff') || pairedOn('off')) {
        await writeGatewayConfig(configFile('log-off'), upstream.url, { log: false });
        starting.push(startGateway(false, undefined, 'gateway').then((gateway) => (gateways.on = gateway)));
        if (pairedOn('logOff')) starting.push(startGateway(false, undefined, 'gateway without its log', undefined, { configFile: configFile('log-off') }).then((gateway) => (gateways.logOff = gateway)));
        if (pairedOn('off')) starting.push(startGateway(false, undefined, 'gateway without its log and line', undefined, { configFile: configFile('log-off'), quiet: true }).then((gateway) => (gateways.off = gateway)));
      }
      if (paired.some((scenario) => scenario.id.startsWith('routing.'))) {
        await writeGatewayConfig(configFile('routing'), upstream.url, { routing: true });
        starting.push(startGateway(false, undefined, 'gateway with routes', undefined, { configFile: configFile('routing') }).then((gateway) => (gateways.routing = gateway)));
      }
      await Promise.all(starting);
      for (const scenario of paired) results[scenario.id] = await timed(scenario.id, () => runPairedScenario({ scenario, settings, gateways, log }));
    } finally {
      for (const gateway of Object.values(gateways)) await gateway.stop();
    }
  };
  // The store on PostgreSQL against the file store (the database's server is found or started once).
  const teamPhase = async (upstream) => {
    for (const scenario of selected.filter((candidate) => candidate.group === 'team')) {
      log('bench: the store on PostgreSQL');
      const { startGateway } = launcherFor(upstream);
      results[scenario.id] = await timed(scenario.id, () =>
        runTeamThroughputScenario({
          scenario,
          settings,
          postgres,
          upstreamUrl: upstream.url,
          configFile: join(scratch, `config-${upstreams.indexOf(upstream) + 1}-postgres.json`),
          startGateway: (name, variant) => startGateway(false, undefined, name, undefined, variant),
          log,
        }),
      );
    }
  };
  const logMemoryPhase = async (upstream) => {
    for (const scenario of selected.filter((candidate) => candidate.group === 'log-memory')) {
      log(`bench: memory over ${settings.logMemoryRequests} logged requests`);
      const { startGateway, startReference } = launcherFor(upstream);
      results[scenario.id] = await timed('log-memory', () => runLogMemoryScenario({ scenario, settings, startReference: () => startReference(), startGateway: () => startGateway(), log }));
    }
  };
  const memoryPhase = async (upstream) => {
    const memory = selected.filter((scenario) => scenario.group === 'memory');
    if (memory.length === 0) return;
    log(`bench: memory (${memory.length} scenarios)`);
    const { startGateway, startReference } = launcherFor(upstream);
    Object.assign(results, await timed('memory', () => runMemoryGroup({ scenarios: memory, settings, upstream, startReference, startGateway, log })));
  };
  const residentPhase = async (upstream) => {
    for (const scenario of selected.filter((candidate) => candidate.group === 'resident')) {
      log('bench: resident memory');
      const { startGateway, startReference } = launcherFor(upstream);
      results[scenario.id] = await timed('resident', () => runResidentScenario({ scenario, settings, upstream, startReference, startGateway, log }));
    }
  };
  const userPhase = async () => {
    for (const scenario of selected.filter((candidate) => candidate.group === 'recoveries')) {
      log('bench: recoveries (bench/recoveries-store.mjs)');
      results[scenario.id] = await timed('recoveries', () => runRecoveriesScenario({ scenario, settings, log }));
    }
    for (const scenario of selected.filter((candidate) => candidate.group === 'team-store')) {
      log('bench: PostgreSQL record writes (bench/postgres-store.mjs)');
      results[scenario.id] = await timed(scenario.id, () => runRecordWriteScenario({ scenario, settings, postgres, log }));
    }
    const cli = selected.filter((scenario) => scenario.group === 'cli');
    if (cli.length > 0) {
      log('bench: cli');
      Object.assign(results, await timed('cli', () => runCliScenarios({ scenarios: cli, settings, log })));
    }
  };

  try {
    if (options.quick) {
      // The quick mode only proves that every scenario runs: its phases run at once, each with its
      // own fake upstream (the upstream's shape is set per phase), unpinned.
      await Promise.all([
        startUpstream().then(async (upstream) => {
          await throughputPhase(upstream);
          await inspectorPhase(upstream);
          await resumePhase(upstream);
        }),
        startUpstream().then(pairedPhase),
        startUpstream().then(teamPhase),
        startUpstream().then(memoryPhase),
        startUpstream().then(async (upstream) => {
          await residentPhase(upstream);
          await logMemoryPhase(upstream);
        }),
        userPhase(),
      ]);
    } else {
      const upstream = await startUpstream();
      await throughputPhase(upstream);
      await inspectorPhase(upstream);
      await resumePhase(upstream);
      await pairedPhase(upstream);
      await teamPhase(upstream);
      await memoryPhase(upstream);
      await residentPhase(upstream);
      await logMemoryPhase(upstream);
      // The store and the CLI run as a user runs them, on every core: child processes inherit the
      // runner's affinity, so the runner lets go of its pin first.
      if (pinned) pinSelf(taskset, `0-${cores - 1}`);
      await userPhase();
    }
  } finally {
    for (const upstream of upstreams) await upstream.stop();
    await postgres.close();
    await rm(scratch, { recursive: true, force: true });
  }

  // Catalog order, whatever order the groups ran in.
  const scenarios = Object.fromEntries(catalog.map((scenario) => [scenario.id, results[scenario.id]]));
  const budget = evaluateBudget(scenarios);
  const rows = tableRows(scenarios, budget);
  machine.loadAverageAtEnd = loadavg().map((value) => Number(value.toFixed(2)));
  const report = {
    suite: 'switchyard bench',
    quick: options.quick,
    only: options.only,
    ...(options.baseline && { baseline: options.baseline }),
    machine,
    settings,
    durationSeconds: Number(((performance.now() - suiteStarted) / 1000).toFixed(1)),
    groupSeconds,
    scenarios,
    budget: budget.map(({ id, metric, basis, op, limit, value, verdict, note }) => Object.assign({ id, metric, basis, op, limit, value, verdict }, note ? { note } : {})),
  };
  await mkdir(dirname(options.out), { recursive: true });
  await writeFile(options.out, `${JSON.stringify(report, (key, value) => (typeof value === 'number' && !Number.isFinite(value) ? null : value), 2)}\n`);

  printReport(report, rows, budget, options.markdown);
  console.log(`results in ${options.out}`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`bench failed: ${error?.stack ?? error}`);
    process.exitCode = 1;
  },
);
