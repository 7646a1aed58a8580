import { mkdir, mkdtemp, readdir, readFile, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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

  it('ignores an orphan body file and temp files of a crashed write', async () => {
    const store = await open();
    await writeFile(join(directory, 'records', 'orphan.json'), JSON.stringify(testRecord('orphan')));
    await writeFile(join(directory, 'records', '.req_9.json.123.abc.tmp'), '{"half');
    await writeFile(join(directory, '.index.json.123.abc.tmp'), '{"half');
    expect(await store.list()).toEqual([]);
    expect(await store.get('orphan')).toBeUndefined();
    expect(await store.remove('orphan')).toBe(false);
  });

  it('sweeps old leftovers on the first add and keeps fresh ones (a write may be in flight)', async () => {
    const store = await open();
    const old = ['records/orphan.json', 'records/.req_9.json.123.abc.tmp', '.index.json.123.abc.tmp'];
    for (const name of [...old, 'records/fresh-orphan.json']) await writeFile(join(directory, name), '{}');
    for (const name of old) await utimes(join(directory, name), hourAgo(), hourAgo());
    await store.add(testRecord('req_1'));
    expect((await readdir(join(directory, 'records'))).sort()).toEqual(['fresh-orphan.json', 'req_1.json']);
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

  it('gives up with STORE_LOCKED while a live process holds the lock, and writes nothing', async () => {
    const store = await open({ lockStaleMs: 10_000, lockTimeoutMs: 300 });
    await store.add(testRecord('req_1'));
    const before = await readFile(indexFile(), 'utf8');
    await mkdir(join(directory, 'index.json.lock'));
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
