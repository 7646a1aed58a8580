// Record writes of the PostgreSQL recoveries store (docs/team.md, "How records are kept") with
// 100,000 rows in its tables against the same with 10: a write must cost the same however many
// records the table holds. Plain ESM on the compiled store, so run `npm run build` first, then:
//   node bench/postgres-store.mjs [--json]     (ROWS=100000 SMALL_ROWS=10 ADDS=200 REFRESHES=200 ROUNDS=5)
// on the server DATABASE_URL names (a user who may create databases), or, without it, on a
// throwaway one `.ci/postgres start` starts and this stops. It makes two databases of its own,
// one per table size, and drops them at the end, also on failure.
//
// In each round, on each database (in alternating order, so a drift of the machine hits both):
// ADDS records added one after another (`add`: the record's two rows, then retention), then a
// drain: a record added as `draining` and refreshed REFRESHES times (`replace`: its summary and
// its growing response, what a drain writes once a second), then completed. Each write is timed
// alone, as the gateway makes it. Both stores are opened with `recoveries.maxRecords` = ROWS, the
// cap of a team that keeps that many: the full table is at its cap, so each add's retention removes
// its oldest record, as in a store in use for a while; on the small one the round's records are
// removed after the round (not timed), so it stays at SMALL_ROWS.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { clientRequest } from './lib/bodies.mjs';
import { quantile } from './lib/stats.mjs';
import { postgresServer } from './lib/team-database.mjs';

const { openPostgresRecoveryStore } = await import('../dist/store/postgres-recovery-store.js');
const { createRecoveryRecord } = await import('../dist/recoveries/recovery-record.js');

const ROWS = Number(process.env.ROWS ?? 100_000);
const SMALL_ROWS = Number(process.env.SMALL_ROWS ?? 10);
const ADDS = Number(process.env.ADDS ?? 200);
const REFRESHES = Number(process.env.REFRESHES ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const JSON_OUTPUT = process.argv.includes('--json');

// What a record holds in the benchmark: the bench's agent-like request (about 1.4 KB) and a Chat
// answer of about 1.3 KB; the seeded rows get the same, numbered.
const REQUEST = JSON.parse(clientRequest('openai-chat', 'm', false).body);
const ANSWER = 'The capital of France is Paris. ';
const requestText = (n) => JSON.stringify(Object.assign({}, REQUEST, { messages: [...REQUEST.messages, { role: 'user', content: `question ${n}` }] }));
const responseText = (n, repeats = 40) => JSON.stringify({ id: `chatcmpl-${n}`, object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: ANSWER.repeat(repeats) }, finish_reason: 'stop' }] });

let made = 0;
function makeRecord(id, createdAt, state, response) {
  made += 1;
  return createRecoveryRecord({
    requestId: id,
    createdAt,
    interruptedReason: 'client_disconnected',
    state,
    user: `user-${made % 100}`,
    model: 'm',
    protocol: 'openai-chat',
    provider: 'up',
    requestBodyText: requestText(id),
    responseBodyText: response,
  });
}

/**
 * `count` records straight into the store's tables, after the store made them (migrated the
 * schema): one INSERT ... SELECT each, a second apart and ending a minute ago, so retention by
 * age keeps them all and the records added later are the newest. Then VACUUM ANALYZE, as
 * autovacuum would have by the time a table holds that many.
 */
async function seed(url, count) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const newest = Math.floor(Date.now() / 1000) - 60;
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO switchyard_recoveries (request_id, created_at, interrupted_reason, state, user_name, model, protocol, provider,
         request_body_hash, response_body_size, response_body)
       SELECT 'seed-' || i, $1::double precision - ($2::int - i), 'client_disconnected', 'complete', 'user-' || (i % 100), 'm', 'openai-chat', 'up',
         encode(sha256(convert_to('seed-' || i, 'UTF8')), 'hex'), octet_length(answer.body), answer.body
       FROM generate_series(1, $2::int) AS i, LATERAL (SELECT replace($3, '__N__', i::text) AS body) AS answer`,
      [newest, count, responseText('__N__')],
    );
    await client.query(`INSERT INTO switchyard_recovery_requests (request_id, body) SELECT 'seed-' || i, replace($2, '__N__', i::text) FROM generate_series(1, $1::int) AS i`, [count, requestText('__N__')]);
    await client.query('COMMIT');
    await client.query('VACUUM ANALYZE switchyard_recoveries');
    await client.query('VACUUM ANALYZE switchyard_recovery_requests');
    const { rows } = await client.query(`SELECT (pg_total_relation_size('switchyard_recoveries') + pg_total_relation_size('switchyard_recovery_requests')) / 1048576.0 AS mb`);
    return Number(rows[0].mb);
  } finally {
    await client.end();
  }
}

/** What the figures depend on besides the store: a server with fsync off commits without waiting for the disk. */
async function serverSettings(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const show = async (name) => (await client.query(`SHOW ${name}`)).rows[0][name];
    return { version: await show('server_version'), fsync: await show('fsync'), synchronousCommit: await show('synchronous_commit'), sharedBuffers: await show('shared_buffers') };
  } finally {
    await client.end();
  }
}

const twoDecimals = (value) => Math.round(value * 100) / 100;
const timed = async (work) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

/** One round's writes on one side; the p50 and p99 of each kind, in ms. */
async function writeRound(side, label, adds, refreshes) {
  const created = Math.floor(Date.now() / 1000);
  const added = Array.from({ length: adds }, (_, position) => makeRecord(`add-${side.name}-${label}-${position}`, created, 'complete', responseText(position)));
  const drainId = `drain-${side.name}-${label}`;
  // A drain's refreshes: the same record, its response longer each time (up to the 1.3 KB answer).
  const refreshed = Array.from({ length: refreshes }, (_, position) => makeRecord(drainId, created, 'draining', responseText(drainId, 1 + (position % 40))));
  const addMs = [];
  for (const record of added) addMs.push(await timed(() => side.store.add(record)));
  await side.store.add(makeRecord(drainId, created, 'draining', responseText(drainId, 0)));
  const refreshMs = [];
  for (const record of refreshed) {
    refreshMs.push(
      await timed(async () => {
        if (!(await side.store.replace(record))) throw new Error(`replace of ${drainId} found no record`);
      }),
    );
  }
  await side.store.replace(makeRecord(drainId, created, 'complete', responseText(drainId)));
  if (side.trim) for (const record of [...added, { request_id: drainId }]) await side.store.remove(record.request_id);
  return { recordAddP50Ms: quantile(addMs, 0.5), recordAddP99Ms: quantile(addMs, 0.99), refreshP50Ms: quantile(refreshMs, 0.5), refreshP99Ms: quantile(refreshMs, 0.99) };
}

const log = (line) => process.stderr.write(`${line}\n`);
// Spawned by bench/run.js: its server, and a prefix under the run's, so that the runner drops
// whatever a kill left, and this process's own sweep drops only its own databases.
const server = postgresServer({ log, ...(process.env.SWITCHYARD_BENCH_DB_PREFIX && { prefix: process.env.SWITCHYARD_BENCH_DB_PREFIX }) });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`postgres-store: ${signal}, dropping its databases`);
    server.closeSync();
    process.exit(130);
  });
}
const sides = [];
try {
  const found = await server.get();
  if (found.reason) throw new Error(found.reason);
  const settings = await serverSettings(found.url);
  for (const [name, rows] of [['small', SMALL_ROWS], ['large', ROWS]]) {
    const database = await server.createDatabase();
    const side = { name, rows, database, trim: name === 'small' };
    sides.push(side);
    side.store = await openPostgresRecoveryStore({ url: database.url, maxRecords: ROWS, log });
    const seedStarted = performance.now();
    side.tableMb = await seed(database.url, rows);
    side.seedSeconds = (performance.now() - seedStarted) / 1000;
    log(`  ${rows} rows seeded in ${side.seedSeconds.toFixed(1)} s (${side.tableMb.toFixed(1)} MB with indexes)`);
  }
  const [small, large] = sides;
  // Warm-up (JIT, connections, the server's caches), not measured.
  for (const side of sides) await writeRound(side, 'warm', Math.min(ADDS, 50), Math.min(REFRESHES, 50));
  const rounds = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? [small, large] : [large, small];
    const measured = {};
    for (const side of order) measured[side.name] = await writeRound(side, String(round), ADDS, REFRESHES);
    rounds.push(measured);
    log(
      `  round ${round + 1}/${ROUNDS}: add p99 ${twoDecimals(measured.small.recordAddP99Ms)} ms (${SMALL_ROWS} rows) / ${twoDecimals(measured.large.recordAddP99Ms)} ms (${ROWS} rows); ` +
        `refresh p99 ${twoDecimals(measured.small.refreshP99Ms)} / ${twoDecimals(measured.large.refreshP99Ms)} ms`,
    );
  }
  const result = { node: process.version, server: { origin: found.origin, ...settings }, rows: ROWS, smallRows: SMALL_ROWS, adds: ADDS, refreshes: REFRESHES, seedSeconds: twoDecimals(large.seedSeconds), tableMb: twoDecimals(large.tableMb), rounds };
  if (JSON_OUTPUT) {
    console.log(JSON.stringify(result));
  } else {
    console.log(`node ${process.version}, PostgreSQL ${settings.version} (${found.origin}; fsync ${settings.fsync}, synchronous_commit ${settings.synchronousCommit}), ${ROWS} rows seeded in ${result.seedSeconds} s (${result.tableMb} MB); ${ADDS} adds and ${REFRESHES} refreshes a round`);
    console.table(rounds.flatMap((round, index) => sides.map((side) => ({ round: index + 1, rows: side.rows, ...Object.fromEntries(Object.entries(round[side.name]).map(([key, value]) => [key, twoDecimals(value)])) }))));
  }
} catch (error) {
  console.error(`postgres-store: ${error.message}`);
  process.exitCode = 1;
} finally {
  for (const side of sides) {
    await side.store?.close().catch(() => undefined);
    await side.database.drop().catch((error) => log(`  could not drop ${side.database.name}: ${error.message}`));
  }
  await server.close();
}
