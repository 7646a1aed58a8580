import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../test/helpers/poll-until.js';
import { createTestDatabase, DATABASE_URL, NO_DATABASE_REASON, type TestDatabase } from '../../test/helpers/test-database.js';
import { createRecoveryRecord, type RecoveryRecord } from '../recoveries/recovery-record.js';
import type { RecoveryStore } from '../recoveries/recovery-store.js';
import { redactDatabaseText, redactDatabaseUrl } from './database-url.js';
import { openPostgresRecoveryStore, type PostgresRecoveryStoreOptions } from './postgres-recovery-store.js';

const NOW_MS = 1_750_000_000_000;

function testRecord(id: string, overrides: { user?: string; createdAt?: number; response?: string } = {}): RecoveryRecord {
  return createRecoveryRecord({
    requestId: id,
    createdAt: overrides.createdAt ?? NOW_MS / 1000 - 10,
    interruptedReason: 'client_disconnected',
    user: overrides.user ?? 'alice',
    model: 'model-a',
    protocol: 'anthropic-messages',
    provider: 'mock',
    requestBodyText: JSON.stringify({ model: 'model-a', id }),
    responseBodyText: overrides.response ?? `{"id":"${id}","content":[]}`,
  });
}

describe('redactDatabaseUrl', () => {
  it('blanks the password, in the userinfo and in the query, and keeps the rest readable', () => {
    expect(redactDatabaseUrl('postgres://team:s3cr%40t-pass@db.internal:5433/switchyard')).toBe('postgres://team:[redacted]@db.internal:5433/switchyard');
    expect(redactDatabaseUrl('postgresql://team@db/x?password=s3cret-pass&sslmode=require')).toBe('postgresql://team@db/x?password=[redacted]&sslmode=require');
    expect(redactDatabaseUrl('postgres://db/x')).toBe('postgres://db/x');
    expect(redactDatabaseUrl('postgres://team:pa ss@[bad')).toBe('postgres://…');
  });

  it('blanks the URL and its password, as written and decoded, out of any text', () => {
    const url = 'postgres://team:s3cr%40t-pass@db:5432/x';
    expect(redactDatabaseText(`cannot reach ${url}; auth with s3cr@t-pass or s3cr%40t-pass failed`, url)).toBe(
      'cannot reach postgres://team:[redacted]@db:5432/x; auth with [redacted] or [redacted] failed',
    );
  });
});

describe.skipIf(!DATABASE_URL)('the PostgreSQL recoveries store', () => {
  let database: TestDatabase;
  const opened: RecoveryStore[] = [];
  const open = async (options: Partial<PostgresRecoveryStoreOptions> = {}): Promise<RecoveryStore> => {
    const store = await openPostgresRecoveryStore(Object.assign({ url: database.url, now: () => NOW_MS }, options));
    opened.push(store);
    return store;
  };
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    const cleaner = await openPostgresRecoveryStore({ url: database.url });
    await cleaner.removeAll();
    await cleaner.close();
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('returns records exactly as the file store does, optional fields absent', async () => {
    const store = await open();
    const record = Object.assign(testRecord('req_1'), { error_message: 'upstream said no', resumed_by: 'req_2' });
    await store.add(record);
    expect(await store.get('req_1')).toEqual(record);
    expect(await store.get('req_1', 'bob')).toBeUndefined();
    const plain = testRecord('req_plain');
    await store.add(plain);
    expect(Object.keys((await store.get('req_plain'))!)).toEqual(Object.keys(plain));
  });

  it('keeps the newest maxRecords, and nothing older than maxAgeMs', async () => {
    // The count is cut after the adds, in the background (at most every 10 s but for this test).
    const store = await open({ maxRecords: 2, maxAgeMs: 3_600_000, countPruneIntervalMs: 0 });
    await store.add(testRecord('too_old', { createdAt: NOW_MS / 1000 - 7200 }));
    for (const [id, age] of [['third', 30], ['first', 10], ['second', 20]] as const) await store.add(testRecord(id, { createdAt: NOW_MS / 1000 - age }));
    const listed = await pollUntil(async () => (await store.list()).map((summary) => summary.request_id), (ids) => ids.length === 2);
    expect(listed).toEqual(['first', 'second']);
  });

  it('replaces only a record still stored, writing the response and summary, never the request body again', async () => {
    const store = await open();
    expect(await store.replace(testRecord('gone'))).toBe(false);
    expect(await store.list()).toEqual([]);
    const record = testRecord('req_grow', { response: '{"v":1}' });
    await store.add(record);
    const grown = Object.assign({}, testRecord('req_grow', { response: '{"v":2}' }), { state: 'complete' as const });
    expect(await store.replace(grown)).toBe(true);
    expect((await store.get('req_grow'))?.response).toEqual({ body_raw: '{"v":2}', response_body_size: 7 });
    expect(await store.markResumed('req_grow', 'req_retry', 'bob')).toBe(false);
    expect(await store.markResumed('req_grow', 'req_retry', 'alice')).toBe(true);
    expect((await store.list())[0]).toMatchObject({ request_id: 'req_grow', resumed_by: 'req_retry' });
    // The request body's row was written once: its tuple is the one the add made.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query("SELECT xmin::text AS version FROM switchyard_recovery_requests WHERE request_id = 'req_grow'");
    const { rows: summaryRows } = await client.query("SELECT xmin::text AS version FROM switchyard_recoveries WHERE request_id = 'req_grow'");
    await client.end();
    expect(rows).toHaveLength(1);
    expect(summaryRows[0].version).not.toBe(rows[0].version);
  });

  it('refuses unsafe records and fails every call after close', async () => {
    const store = await open();
    await expect(store.add(Object.assign(testRecord('x'), { request_id: '../escape' }))).rejects.toMatchObject({ code: 'INVALID_RECORD' });
    expect(await store.get('../escape')).toBeUndefined();
    await store.close();
    await expect(store.list()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });
});

describe.skipIf(DATABASE_URL)('the PostgreSQL recoveries store', () => {
  it.skip(NO_DATABASE_REASON, () => undefined);
});
