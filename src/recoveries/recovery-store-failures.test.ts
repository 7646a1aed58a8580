import { mkdir, mkdtemp, readdir, readFile, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecoveryRecord, type RecoveryRecord } from './recovery-record.js';
import { RecoveryStoreError } from './recovery-store-error.js';
import { openRecoveryStore, type RecoveryStore, type RecoveryStoreOptions } from './recovery-store.js';

/** Crashes, corruption and contention: what another process or a power cut leaves behind. */

function testRecord(id: string): RecoveryRecord {
  return createRecoveryRecord({
    requestId: id,
    createdAt: Math.floor(Date.now() / 1000),
    interruptedReason: 'upstream_error',
    user: 'alice',
    model: 'model-a',
    protocol: 'openai-responses',
    provider: 'mock',
    errorMessage: 'upstream closed the stream',
    requestBodyText: JSON.stringify({ model: 'model-a', input: id }),
    responseBodyText: '{"status":"failed"}',
  });
}

let directory: string;
const opened: RecoveryStore[] = [];
async function open(options: Partial<RecoveryStoreOptions> = {}): Promise<RecoveryStore> {
  const store = await openRecoveryStore({ directory, ...options });
  opened.push(store);
  return store;
}
const indexFile = (): string => join(directory, 'index.json');
const hourAgo = (): Date => new Date(Date.now() - 3_600_000);

/** The pid of a process that has run and exited: what a killed lock holder leaves in its lock. */
function pidOfExitedProcess(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve(child.pid!));
  });
}

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'switchyard-store-'));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  await rm(directory, { recursive: true, force: true });
});

describe('a corrupt index', () => {
  for (const [label, content] of [
    ['truncated JSON', '{"version":1,"records":[{"request_id":"a"'],
    ['an empty file', ''],
    ['the wrong shape', '[]'],
    ['a bad entry', '{"version":1,"records":[{"request_id":"a"}]}'],
  ] as const) {
    it(`is a STORE_CORRUPT error naming the file and is never overwritten (${label})`, async () => {
      await mkdir(join(directory, 'records'), { recursive: true });
      await writeFile(indexFile(), content);
      const before = await stat(indexFile());
      const store = await open();
      const failure = await store.list().catch((error: unknown) => error);
      expect(RecoveryStoreError.is(failure)).toBe(true);
      expect(failure).toMatchObject({ code: 'STORE_CORRUPT', file: indexFile() });
      expect((failure as Error).message).toContain(indexFile());
      await expect(store.add(testRecord('req_1'))).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
      await expect(store.remove('a')).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
      await expect(store.removeAll()).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
      expect(await readFile(indexFile(), 'utf8')).toBe(content);
      expect((await stat(indexFile())).mtimeMs).toBe(before.mtimeMs);
      // The body of the refused add does not linger.
      expect(await readdir(join(directory, 'records'))).toEqual([]);
    });
  }
});

describe('record files', () => {
  it('treats an index entry whose body file is missing as missing', async () => {
    const store = await open();
    await store.add(testRecord('req_1'));
    await unlink(join(directory, 'records', 'req_1.json'));
    expect(await store.get('req_1')).toBeUndefined();
  });

  it('reports a corrupt body file by name', async () => {
    const store = await open();
    await store.add(testRecord('req_1'));
    const file = join(directory, 'records', 'req_1.json');
    await writeFile(file, '{"request_id":');
    await expect(store.get('req_1')).rejects.toMatchObject({ code: 'STORE_CORRUPT', file });
  });

  it('indexes again, on open, a record file that a crash left without its index entry', async () => {
    const first = await open();
    await first.add(testRecord('req_1'));
    // As a process killed between making the file visible and writing the index leaves it.
    await writeFile(join(directory, 'records', 'req_2.json'), JSON.stringify(testRecord('req_2')));
    const logs: string[] = [];
    const store = await open({ log: (line) => logs.push(line) });
    expect((await store.list()).map((summary) => summary.request_id).sort()).toEqual(['req_1', 'req_2']);
    expect(await store.get('req_2')).toEqual(testRecord('req_2'));
    expect(JSON.parse(await readFile(indexFile(), 'utf8')).records).toHaveLength(2);
    expect(logs).toEqual([]);
  });

  it('indexes an orphan on the next write of a store already open, and forgets an entry whose file a cut removal deleted', async () => {
    const store = await open();
    await store.add(testRecord('req_1'));
    await store.add(testRecord('req_2'));
    await writeFile(join(directory, 'records', 'req_3.json'), JSON.stringify(testRecord('req_3')));
    await unlink(join(directory, 'records', 'req_1.json'));
    await store.add(testRecord('req_4'));
    expect((await store.list()).map((summary) => summary.request_id).sort()).toEqual(['req_2', 'req_3', 'req_4']);
  });

  it('removes, and logs, only a record file that cannot be read as a record; temp files wait for the sweep', async () => {
    await mkdir(join(directory, 'records'), { recursive: true });
    await writeFile(join(directory, 'records', 'broken.json'), '{"request_id":');
    await writeFile(join(directory, 'records', 'other.json'), JSON.stringify(testRecord('not-other')));
    await writeFile(join(directory, 'records', '.req_9.json.123.abc.tmp'), '{"half');
    await writeFile(join(directory, '.index.json.123.abc.tmp'), '{"half');
    const logs: string[] = [];
    const store = await open({ log: (line) => logs.push(line) });
    expect(await store.list()).toEqual([]);
    expect((await readdir(join(directory, 'records'))).sort()).toEqual(['.req_9.json.123.abc.tmp']);
    expect(logs).toHaveLength(2);
    expect(logs.join('\n')).toContain(join(directory, 'records', 'broken.json'));
    expect(logs.join('\n')).toContain(join(directory, 'records', 'other.json'));
  });

  it('sweeps old temp files on the first add and keeps fresh ones (a write may be in flight)', async () => {
    const store = await open();
    const old = ['records/.req_9.json.123.abc.tmp', '.index.json.123.abc.tmp'];
    for (const name of [...old, 'records/.req_8.json.123.def.tmp']) await writeFile(join(directory, name), '{}');
    for (const name of old) await utimes(join(directory, name), hourAgo(), hourAgo());
    await store.add(testRecord('req_1'));
    expect((await readdir(join(directory, 'records'))).sort()).toEqual(['.req_8.json.123.def.tmp', 'req_1.json']);
    expect((await readdir(directory)).sort()).toEqual(['index.json', 'records']);
  });
});

describe('the inter-process lock', () => {
  it('takes over a stale lock left by a crashed process', async () => {
    const store = await open({ lockStaleMs: 2000, lockTimeoutMs: 5000 });
    const lock = join(directory, 'index.json.lock');
    await mkdir(lock);
    await utimes(lock, hourAgo(), hourAgo());
    await store.add(testRecord('req_1'));
    expect(await store.list()).toHaveLength(1);
    await expect(stat(lock)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes over at once the lock of a holder that was killed, as the killed process left it', async () => {
    const deadPid = await pidOfExitedProcess();
    const lock = join(directory, 'index.json.lock');
    await mkdir(lock);
    await writeFile(join(lock, 'owner.json'), JSON.stringify({ pid: deadPid, host: hostname() }));
    // Its mtime is fresh and would keep it for a minute: only the dead owner lets a 1 s wait succeed.
    const store = await open({ lockStaleMs: 60_000, lockTimeoutMs: 1000 });
    await store.add(testRecord('req_1'));
    expect((await store.list()).map((summary) => summary.request_id)).toEqual(['req_1']);
    await expect(stat(lock)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await readdir(directory)).sort()).toEqual(['index.json', 'records']);
  });

  it('leaves the lock of a live holder alone, whatever its owner file says', async () => {
    const lock = join(directory, 'index.json.lock');
    await mkdir(lock);
    await writeFile(join(lock, 'owner.json'), JSON.stringify({ pid: process.pid, host: hostname() }));
    const store = await open({ lockStaleMs: 60_000, lockTimeoutMs: 300 });
    await expect(store.add(testRecord('req_1'))).rejects.toMatchObject({ code: 'STORE_LOCKED' });
    expect(await readFile(join(lock, 'owner.json'), 'utf8')).toContain(String(process.pid));
  });

  it('gives up with STORE_LOCKED while a live process holds the lock, and writes nothing', async () => {
    const store = await open({ lockStaleMs: 10_000, lockTimeoutMs: 300 });
    await store.add(testRecord('req_1'));
    const before = await readFile(indexFile(), 'utf8');
    await mkdir(join(directory, 'index.json.lock'));
    await writeFile(join(directory, 'index.json.lock', 'owner.json'), JSON.stringify({ pid: process.pid, host: hostname() }));
    const started = Date.now();
    await expect(store.add(testRecord('req_2'))).rejects.toMatchObject({ code: 'STORE_LOCKED' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    await expect(store.remove('req_1')).rejects.toMatchObject({ code: 'STORE_LOCKED' });
    expect(await readFile(indexFile(), 'utf8')).toBe(before);
    // Reads need no lock: every file is replaced atomically.
    expect(await store.list()).toHaveLength(1);
    expect(await store.get('req_1')).toBeDefined();
  });
});
