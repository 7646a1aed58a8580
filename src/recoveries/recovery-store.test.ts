import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecoveryRecord, type RecoveryRecord } from './recovery-record.js';
import { openRecoveryStore, type RecoveryStore, type RecoveryStoreOptions } from './recovery-store.js';

const NOW_MS = 1_750_000_000_000;

function testRecord(id: string, overrides: { user?: string; createdAt?: number; body?: object; response?: string } = {}): RecoveryRecord {
  return createRecoveryRecord({
    requestId: id,
    createdAt: overrides.createdAt ?? NOW_MS / 1000 - 10,
    interruptedReason: 'client_disconnected',
    user: overrides.user ?? 'alice',
    model: 'model-a',
    protocol: 'anthropic-messages',
    provider: 'mock',
    requestBodyText: JSON.stringify(overrides.body ?? { model: 'model-a', id }),
    responseBodyText: overrides.response ?? `{"id":"${id}","content":[]}`,
  });
}

let directory: string;
const opened: RecoveryStore[] = [];
async function open(options: Partial<RecoveryStoreOptions> = {}): Promise<RecoveryStore> {
  const store = await openRecoveryStore({ directory, now: () => NOW_MS, ...options });
  opened.push(store);
  return store;
}
const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;
const recordFiles = async (): Promise<string[]> => (await readdir(join(directory, 'records'))).sort();

beforeEach(async () => {
  directory = join(await mkdtemp(join(tmpdir(), 'switchyard-store-')), 'recoveries');
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  await rm(join(directory, '..'), { recursive: true, force: true });
});

describe('openRecoveryStore round trips', () => {
  it('adds, lists newest first, gets, looks up and removes', async () => {
    const store = await open();
    const older = testRecord('req_old', { createdAt: NOW_MS / 1000 - 100 });
    const newer = testRecord('req_new', { body: { same: 'body' } });
    await store.add(older);
    await store.add(newer);
    expect((await store.list()).map((summary) => summary.request_id)).toEqual(['req_new', 'req_old']);
    expect(await store.get('req_old')).toEqual(older);
    expect((await store.lookup(newer.request.request_body_hash)).map((summary) => summary.request_id)).toEqual(['req_new']);
    expect(await store.lookup('0123456789abcdef')).toEqual([]);
    expect(await store.remove('req_old')).toBe(true);
    expect(await store.remove('req_old')).toBe(false);
    expect(await store.get('req_old')).toBeUndefined();
    expect(await recordFiles()).toEqual(['req_new.json']);
  });

  it('keeps summaries in index.json and each full record in its own file', async () => {
    const store = await open();
    const record = testRecord('req_1', { response: JSON.stringify({ big: 'x'.repeat(10_000) }) });
    await store.add(record);
    const index = JSON.parse(await readFile(join(directory, 'index.json'), 'utf8'));
    expect(index).toEqual({
      version: 1,
      records: [{ request_id: 'req_1', created_at: record.created_at, interrupted_reason: 'client_disconnected', state: 'complete', request_body_hash: record.request.request_body_hash, user: 'alice', model: 'model-a', protocol: 'anthropic-messages', provider: 'mock', response_body_size: record.response.response_body_size }],
    });
    expect(JSON.parse(await readFile(join(directory, 'records', 'req_1.json'), 'utf8'))).toEqual(record);
  });

  it('writes a record of megabytes whole, as JSON.stringify writes it, and reads it back', async () => {
    const store = await open();
    // A long generation, with characters JSON escapes: written a piece at a time, the text is the same.
    const record = testRecord('req_big', { response: JSON.stringify({ content: 'line "one"\n😀'.repeat(300_000) }) });
    await store.add(record);
    expect(await readFile(join(directory, 'records', 'req_big.json'), 'utf8')).toBe(JSON.stringify(record));
    expect(await store.get('req_big')).toEqual(record);
  });

  it('replaces a record added twice with the same id', async () => {
    const store = await open();
    await store.add(testRecord('req_1', { response: '{"v":1}' }));
    await store.add(testRecord('req_1', { response: '{"v":2}' }));
    expect(await store.list()).toHaveLength(1);
    expect((await store.get('req_1'))?.response.body_raw).toBe('{"v":2}');
  });

  it('applies dozens of concurrent adds and removes of one process', async () => {
    const store = await open();
    await Promise.all(Array.from({ length: 40 }, (_, position) => store.add(testRecord(`req_${position}`))));
    const removals = await Promise.all(Array.from({ length: 40 }, (_, position) => (position % 2 ? store.remove(`req_${position}`) : Promise.resolve(false))));
    expect(removals.filter(Boolean)).toHaveLength(20);
    expect((await store.list()).map((summary) => summary.request_id).sort()).toEqual(Array.from({ length: 20 }, (_, half) => `req_${half * 2}`).sort());
    expect(await recordFiles()).toHaveLength(20);
  });

  it('counts with a dry run, then removes everything', async () => {
    const store = await open();
    for (const id of ['a', 'b', 'c']) await store.add(testRecord(id));
    expect(await store.removeAll(undefined, { dryRun: true })).toBe(3);
    expect(await store.list()).toHaveLength(3);
    expect(await store.removeAll()).toBe(3);
    expect(await store.list()).toEqual([]);
    expect(await recordFiles()).toEqual([]);
    expect(await store.removeAll()).toBe(0);
  });

  it('refuses unsafe or malformed records before touching the disk', async () => {
    const store = await open();
    await expect(store.add({ ...testRecord('x'), request_id: '../escape' })).rejects.toMatchObject({ code: 'INVALID_RECORD' });
    await expect(store.add({ ...testRecord('x'), interrupted_reason: 'bored' as never })).rejects.toMatchObject({ code: 'INVALID_RECORD' });
    expect(await store.get('../escape')).toBeUndefined();
    expect(await store.remove('../../etc/passwd')).toBe(false);
    expect(await recordFiles()).toEqual([]);
  });

  it('fails every call after close', async () => {
    const store = await open();
    await store.close();
    await expect(store.list()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    await expect(store.add(testRecord('a'))).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });
});

describe('user isolation', () => {
  it("makes another user's records indistinguishable from missing ones", async () => {
    const store = await open();
    const alices = testRecord('req_alice', { user: 'alice', body: { same: 1 } });
    await store.add(alices);
    await store.add(testRecord('req_bob', { user: 'bob', body: { same: 1 } }));
    expect((await store.list('bob')).map((summary) => summary.request_id)).toEqual(['req_bob']);
    expect(await store.get('req_alice', 'bob')).toBeUndefined();
    expect((await store.lookup(alices.request.request_body_hash, 'bob')).map((summary) => summary.request_id)).toEqual(['req_bob']);
    expect(await store.remove('req_alice', 'bob')).toBe(false);
    expect(await store.removeAll('bob', { dryRun: true })).toBe(1);
    expect(await store.removeAll('bob')).toBe(1);
    expect(await store.get('req_alice', 'alice')).toEqual(alices);
    expect(await store.list()).toHaveLength(1);
  });
});

describe('permissions', () => {
  it('creates the folders 0700 and the files 0600', async () => {
    const store = await open();
    await store.add(testRecord('req_1'));
    expect(await modeOf(directory)).toBe(0o700);
    expect(await modeOf(join(directory, 'records'))).toBe(0o700);
    expect(await modeOf(join(directory, 'index.json'))).toBe(0o600);
    expect(await modeOf(join(directory, 'records', 'req_1.json'))).toBe(0o600);
  });

  it('fixes the modes of an existing store', async () => {
    await mkdir(join(directory, 'records'), { recursive: true });
    await writeFile(join(directory, 'index.json'), '{"version":1,"records":[]}');
    await writeFile(join(directory, 'records', 'old.json'), JSON.stringify(testRecord('old')));
    await chmod(directory, 0o755);
    await chmod(join(directory, 'records'), 0o777);
    await chmod(join(directory, 'index.json'), 0o644);
    await chmod(join(directory, 'records', 'old.json'), 0o644);
    const store = await open();
    expect(await modeOf(directory)).toBe(0o700);
    expect(await modeOf(join(directory, 'records'))).toBe(0o700);
    expect(await modeOf(join(directory, 'index.json'))).toBe(0o600);
    await store.add(testRecord('req_1'));
    // Record files are fixed by the sweep of the first add.
    expect(await modeOf(join(directory, 'records', 'old.json'))).toBe(0o600);
  });
});

describe('retention', () => {
  it('prunes the oldest records over maxRecords, with their files', async () => {
    const store = await open({ maxRecords: 3 });
    for (let position = 0; position < 5; position += 1) await store.add(testRecord(`req_${position}`, { createdAt: NOW_MS / 1000 - 100 + position }));
    expect((await store.list()).map((summary) => summary.request_id)).toEqual(['req_4', 'req_3', 'req_2']);
    expect(await recordFiles()).toEqual(['req_2.json', 'req_3.json', 'req_4.json']);
  });

  it('prunes records older than maxAgeMs on the next add', async () => {
    const hour = 3_600_000;
    const store = await open({ maxAgeMs: hour });
    await store.add(testRecord('req_fresh', { createdAt: NOW_MS / 1000 - 60 }));
    let clock = NOW_MS;
    const later = await open({ maxAgeMs: hour, now: () => clock });
    clock = NOW_MS + hour;
    await later.add(testRecord('req_next', { createdAt: clock / 1000 }));
    expect((await later.list()).map((summary) => summary.request_id)).toEqual(['req_next']);
    expect(await recordFiles()).toEqual(['req_next.json']);
  });
});
