// Cost of writing a recovery record while the store is full of large ones (writing a record must
// not stall other requests). Plain ESM on the compiled store, so run
// `npm run build` (or `npx tsc -p tsconfig.build.json`) first, then:
//   node bench/recoveries-store.mjs            (STORED=100 BODY_MB=5 ADDS=20 by default)
// For each scenario: the time of each `add` and the event-loop delay measured with
// perf_hooks.monitorEventLoopDelay while the adds run (what every other request would feel).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

const { openRecoveryStore } = await import('../dist/recoveries/recovery-store.js');
const { createRecoveryRecord } = await import('../dist/recoveries/recovery-record.js');
const { writeFileAtomic } = await import('../dist/recoveries/write-file-atomic.js');

const MEGABYTE = 1024 * 1024;
const STORED = Number(process.env.STORED ?? 100);
const BODY_MB = Number(process.env.BODY_MB ?? 5);
const ADDS = Number(process.env.ADDS ?? 20);

function makeRecord(id, responseBytes) {
  const filler = 'x'.repeat(Math.max(0, responseBytes - 64));
  return createRecoveryRecord({
    requestId: id,
    createdAt: Math.floor(Date.now() / 1000),
    interruptedReason: 'client_disconnected',
    user: 'bench',
    model: 'bench-model',
    protocol: 'openai-chat',
    provider: 'mock',
    requestBodyText: JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: id }] }),
    responseBodyText: JSON.stringify({ id, choices: [{ message: { content: filler } }] }),
  });
}

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const round = (value) => Math.round(value * 10) / 10;

async function measure(label, work) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  const durations = await work();
  const totalMs = performance.now() - started;
  delay.disable();
  return {
    scenario: label,
    'add p50 ms': round(quantile(durations, 0.5)),
    'add max ms': round(Math.max(...durations)),
    'total ms': round(totalMs),
    'loop delay p50 ms': round(delay.percentile(50) / 1e6),
    'loop delay p99 ms': round(delay.percentile(99) / 1e6),
    'loop delay max ms': round(delay.max / 1e6),
  };
}

async function sequentialAdds(store, prefix, bytes) {
  // Built before the measurement: making a 5 MB string is the caller's cost, not the store's.
  const records = Array.from({ length: ADDS }, (_, position) => makeRecord(`${prefix}-${position}`, bytes));
  return measure(`${ADDS} sequential adds of ${bytes >= MEGABYTE ? `${bytes / MEGABYTE} MB` : `${bytes} B`}`, async () => {
    const durations = [];
    for (const record of records) {
      const started = performance.now();
      await store.add(record);
      durations.push(performance.now() - started);
    }
    return durations;
  });
}

/**
 * Control: the same bytes written with the same atomic write (temp + fsync + rename) to a
 * folder of their own, without the store. Whatever this row gains between scenarios is the disk
 * and page cache (hundreds of MB just written), not the store.
 */
async function rawFileWrites(folder, bytes) {
  const { mkdir } = await import('node:fs/promises');
  await mkdir(folder, { recursive: true });
  const texts = Array.from({ length: ADDS }, (_, position) => JSON.stringify(makeRecord(`raw-${position}`, bytes)));
  return measure(`control: ${ADDS} atomic writes of ${bytes / MEGABYTE} MB, no store`, async () => {
    const durations = [];
    for (const [position, text] of texts.entries()) {
      const started = performance.now();
      await writeFileAtomic(join(folder, `raw-${position}.json`), text, { mode: 0o600 });
      durations.push(performance.now() - started);
    }
    return durations;
  });
}

async function concurrentAdds(store, prefix, bytes) {
  const records = Array.from({ length: ADDS }, (_, position) => makeRecord(`${prefix}-${position}`, bytes));
  return measure(`${ADDS} concurrent adds of ${bytes} B`, () =>
    Promise.all(records.map(async (record) => {
      const started = performance.now();
      await store.add(record);
      return performance.now() - started;
    })),
  );
}

const workspace = await mkdtemp(join(tmpdir(), 'switchyard-bench-'));
try {
  const rows = [];
  // Warm-up (JIT, first sweep, file-system caches) so the first scenario is not charged for it.
  const warmStore = await openRecoveryStore({ directory: join(workspace, 'warm-up') });
  for (let position = 0; position < 5; position += 1) await warmStore.add(makeRecord(`warm-${position}`, BODY_MB * MEGABYTE));
  await warmStore.close();
  const emptyStore = await openRecoveryStore({ directory: join(workspace, 'empty'), maxRecords: 100_000 });
  rows.push({ stored: 'none', ...(await rawFileWrites(join(workspace, 'raw-empty'), BODY_MB * MEGABYTE)) });
  rows.push({ stored: 'none', ...(await sequentialAdds(emptyStore, 'empty-big', BODY_MB * MEGABYTE)) });
  rows.push({ stored: 'none', ...(await sequentialAdds(emptyStore, 'empty-small', 1024)) });
  await emptyStore.close();

  const fullStore = await openRecoveryStore({ directory: join(workspace, 'full'), maxRecords: 100_000 });
  const seedStarted = performance.now();
  for (let position = 0; position < STORED; position += 1) await fullStore.add(makeRecord(`seed-${position}`, BODY_MB * MEGABYTE));
  const seedSeconds = round((performance.now() - seedStarted) / 1000);
  // The seed wrote hundreds of MB a moment ago; in a real server those records were written long
  // before. Let the kernel finish writing them back, so the fsyncs measured below do not wait
  // for someone else's dirty pages.
  if (process.platform !== 'win32') execFileSync('sync');
  const stored = `${STORED} x ${BODY_MB} MB`;
  rows.push({ stored, ...(await rawFileWrites(join(workspace, 'raw-full'), BODY_MB * MEGABYTE)) });
  rows.push({ stored, ...(await sequentialAdds(fullStore, 'full-big', BODY_MB * MEGABYTE)) });
  rows.push({ stored, ...(await sequentialAdds(fullStore, 'full-small', 1024)) });
  rows.push({ stored, ...(await concurrentAdds(fullStore, 'full-parallel', 1024)) });
  const listStarted = performance.now();
  const count = (await fullStore.list()).length;
  const listMs = round(performance.now() - listStarted);
  await fullStore.close();

  console.log(`node ${process.version}, seeded ${stored} in ${seedSeconds} s; list() of ${count} summaries: ${listMs} ms`);
  console.table(rows);
} finally {
  await rm(workspace, { recursive: true, force: true });
}
