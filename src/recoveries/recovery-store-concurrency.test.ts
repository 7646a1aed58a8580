import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecoveryRecord } from './recovery-record.js';
import { openRecoveryStore } from './recovery-store.js';
import { transpileForChildProcesses } from './transpile-for-child-processes.mjs';

/**
 * The server and the CLI at once: two worker threads (each its own module instances, so they
 * share nothing but the disk, like processes), a child process removing everything of one user
 * in a loop, and this thread, all on one store. Afterwards every record is accounted for.
 */
const projectRoot = resolve(fileURLToPath(import.meta.url), '../../..');
const workerScript = fileURLToPath(new URL('./store-concurrency-worker.mjs', import.meta.url));
const WRITES_PER_WRITER = 30;

interface WriterResult { added: string[]; removed: string[]; doomed: string[] }
interface CleanerResult { removedDoomed: number; rounds: number }

let workspace: string;
let compiled: string;
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'switchyard-concurrency-'));
  compiled = await transpileForChildProcesses(projectRoot, ['src/recoveries', 'src/core'], join(workspace, 'build'));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

function runWorkerThread(task: object): Promise<WriterResult> {
  return new Promise((resolvePromise, reject) => {
    const worker = new Worker(workerScript, { workerData: task });
    worker.once('message', resolvePromise);
    worker.once('error', reject);
  });
}

function runChildProcess(task: object): Promise<CleanerResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [workerScript, JSON.stringify(task)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (errors += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolvePromise(JSON.parse(output)) : reject(new Error(`cleaner exited ${code}: ${errors}`))));
  });
}

async function runWriterHere(directory: string, name: string): Promise<WriterResult> {
  const store = await openRecoveryStore({ directory, maxRecords: 100_000 });
  const added: string[] = [];
  const removed: string[] = [];
  for (let position = 0; position < WRITES_PER_WRITER; position += 1) {
    const id = `${name}-${position}`;
    await store.add(createRecoveryRecord({ requestId: id, createdAt: Math.floor(Date.now() / 1000), interruptedReason: 'server_shutdown', user: name, model: 'm', protocol: 'gemini', provider: 'mock', requestBodyText: JSON.stringify({ id }), responseBodyText: JSON.stringify({ id }) }));
    added.push(id);
    if (position % 2 === 1 && (await store.remove(added[position - 1], name))) removed.push(added[position - 1]);
  }
  await store.close();
  return { added, removed, doomed: [] };
}

describe('several processes on one store', () => {
  it('loses no record and brings none back', async () => {
    const directory = join(workspace, 'store');
    const stopFile = join(workspace, 'stop');
    const common = { directory, storeModule: join(compiled, 'src/recoveries/recovery-store.js'), recordModule: join(compiled, 'src/recoveries/recovery-record.js') };
    // The directory must exist before the cleaner's first lock; opening creates it.
    await (await openRecoveryStore({ directory })).close();
    const cleaner = runChildProcess({ ...common, role: 'cleaner', stopFile });
    const writers = await Promise.all([
      runWorkerThread({ ...common, role: 'writer', name: 'thread-a', count: WRITES_PER_WRITER }),
      runWorkerThread({ ...common, role: 'writer', name: 'thread-b', count: WRITES_PER_WRITER }),
      runWriterHere(directory, 'main'),
    ]);
    await writeFile(stopFile, '');
    const { removedDoomed, rounds } = await cleaner;
    expect(rounds).toBeGreaterThan(0);

    const store = await openRecoveryStore({ directory });
    const present = (await store.list()).map((summary) => summary.request_id);
    const expected = writers.flatMap(({ added, removed }) => added.filter((id) => !removed.includes(id)));
    const doomedAdded = writers.flatMap(({ doomed }) => doomed);
    const doomedPresent = present.filter((id) => id.includes('-doomed-'));
    expect(present.filter((id) => !id.includes('-doomed-')).sort()).toEqual(expected.sort());
    // Every doomed record was either removed by the cleaner (counted once) or is still there.
    expect(removedDoomed + doomedPresent.length).toBe(doomedAdded.length);
    for (const id of present) expect((await store.get(id))?.request_id).toBe(id);
    // No orphan bodies and no temp files: every file on disk is indexed.
    expect((await readdir(join(directory, 'records'))).sort()).toEqual(present.map((id) => `${id}.json`).sort());
    expect((await readdir(directory)).sort()).toEqual(['index.json', 'records']);
    await store.close();
  });
});
