import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRecoveryStore } from './recovery-store.js';
import { transpileForChildProcesses } from './transpile-for-child-processes.mjs';

/**
 * A writer killed with SIGKILL at random points, again and again, on one store: in the middle of
 * writing a body, holding the lock, between a record's file and its index entry. Afterwards the
 * store opens valid, every record whose add the writer saw resolve is there, and every record
 * whose removal it saw resolve is gone.
 */
const projectRoot = resolve(fileURLToPath(import.meta.url), '../../..');
const writerScript = fileURLToPath(new URL('./store-crash-writer.mjs', import.meta.url));
const KILLS = 20;

let workspace: string;
let compiled: string;
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'switchyard-crash-'));
  compiled = await transpileForChildProcesses(projectRoot, ['src/recoveries', 'src/core'], join(workspace, 'build'));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

interface Run {
  lines: string[];
  /** Whether the killed writer left the lock behind. */
  leftLock: boolean;
}

/** Starts a writer, lets it acknowledge a first write, kills it after a random further delay. */
function runAndKill(task: object, directory: string, random: () => number): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [writerScript, JSON.stringify(task)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    let scheduled = false;
    const deadline = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      if (scheduled) return;
      scheduled = true;
      setTimeout(() => child.kill('SIGKILL'), Math.floor(random() * 150));
    });
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk));
    child.once('error', reject);
    // 'exit' comes once the process is reaped, so its pid names no process any more.
    child.once('exit', (code, signal) => {
      clearTimeout(deadline);
      if (signal !== 'SIGKILL' && code !== 0) return reject(new Error(`writer exited ${code}: ${errors}`));
      const complete = output.endsWith('\n') ? output : output.slice(0, output.lastIndexOf('\n') + 1);
      resolvePromise({ lines: complete.split('\n').filter(Boolean), leftLock: existsSync(join(directory, 'index.json.lock')) });
    });
  });
}

/** A small deterministic generator, so that a failure can be run again with the same kills. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('a writer killed at random points', () => {
  it('loses no acknowledged record, brings no removed one back, and leaves a valid store', async () => {
    const directory = join(workspace, 'store');
    const random = seededRandom(Number(process.env.CRASH_SEED ?? 7));
    const common = { directory, count: 10_000, storeModule: join(compiled, 'src/recoveries/recovery-store.js'), recordModule: join(compiled, 'src/recoveries/recovery-record.js') };
    const acknowledged = new Set<string>();
    const removed = new Set<string>();
    const removing = new Set<string>();
    const failures: string[] = [];
    let locksLeft = 0;
    for (let kill = 0; kill < KILLS; kill += 1) {
      const run = await runAndKill({ ...common, name: `w${kill}` }, directory, random);
      if (run.leftLock) locksLeft += 1;
      for (const line of run.lines) {
        if (line.startsWith('+')) acknowledged.add(line.slice(1));
        else if (line.startsWith('-')) removed.add(line.slice(1));
        else if (line.startsWith('?')) removing.add(line.slice(1));
        else failures.push(line);
      }
      // Now and then the next writer comes at once, racing the repair with its own writes.
      if (random() < 0.5) await sleep(1);
    }
    expect(failures).toEqual([]);

    const store = await openRecoveryStore({ directory });
    const present = new Set((await store.list()).map((summary) => summary.request_id));
    // A removal the writer did not see finish may have happened or not.
    const lost = [...acknowledged].filter((id) => !removing.has(id) && !present.has(id));
    const back = [...removed].filter((id) => present.has(id));
    expect({ lost, back }).toEqual({ lost: [], back: [] });
    for (const id of present) expect((await store.get(id))?.request_id).toBe(id);
    // The index and the files agree: every record file is indexed.
    const files = (await readdir(join(directory, 'records'))).filter((name) => !name.startsWith('.'));
    expect(files.sort()).toEqual([...present].map((id) => `${id}.json`).sort());
    await store.close();
    // eslint-disable-next-line no-console
    console.log(`crash test: ${KILLS} kills, ${acknowledged.size} acknowledged adds, ${removed.size} removals, ${locksLeft} locks left by a killed writer, ${present.size} records`);
  }, 60_000);
});
