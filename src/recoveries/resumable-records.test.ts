import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashRequestBody } from './hash-request-body.js';
import { createRecoveryRecord, type InterruptedReason, type RecoveryState } from './recovery-record.js';
import { openRecoveryStore, type FileRecoveryStore } from './recovery-store.js';
import { ResumableRecords, type ResumableRecord } from './resumable-records.js';

const NOW = 1_750_000_000_000;
const WINDOW = 600_000;
const BODY = { model: 'model-a', messages: [{ role: 'user', content: 'Tell me.' }] };

function record(requestId: string, overrides: Partial<ResumableRecord<string>> = {}): ResumableRecord<string> {
  return Object.assign(
    { requestId, user: 'alice', model: 'model-a', protocol: 'openai-chat', hash: hashRequestBody(BODY), interruptedAt: NOW - 1000, live: undefined, settled: Promise.resolve(), usedBy: undefined },
    overrides,
  );
}

const query = (overrides: Partial<{ user: string; model: string; protocol: string; body: unknown; now: number }> = {}) =>
  Object.assign({ user: 'alice', model: 'model-a', protocol: 'openai-chat', body: BODY as unknown, now: NOW, windowMs: WINDOW }, overrides);

describe('ResumableRecords.find', () => {
  it('finds the record of the same user, model, protocol and body within the window', () => {
    const records = new ResumableRecords<string>();
    const kept = record('req_1');
    records.add(kept);
    expect(records.find(query())).toBe(kept);
    // Key order and whitespace do not change the body's hash.
    expect(records.find(query({ body: { messages: [{ content: 'Tell me.', role: 'user' }], model: 'model-a' } }))).toBe(kept);
  });

  it('never finds another user’s record, nor one of another model, protocol or body', () => {
    const records = new ResumableRecords<string>();
    records.add(record('req_1'));
    expect(records.find(query({ user: 'bob' }))).toBeUndefined();
    expect(records.find(query({ model: 'model-b' }))).toBeUndefined();
    expect(records.find(query({ protocol: 'anthropic-messages' }))).toBeUndefined();
    expect(records.find(query({ body: { model: 'model-a', messages: [{ role: 'user', content: 'Tell me!' }] } }))).toBeUndefined();
    expect(records.find(query())?.requestId).toBe('req_1');
  });

  it('counts the window from the interruption, and forgets records past it', () => {
    const records = new ResumableRecords<string>();
    records.add(record('req_edge', { interruptedAt: NOW - WINDOW }));
    expect(records.find(query())?.requestId).toBe('req_edge');
    expect(records.find(query({ now: NOW + 1 }))).toBeUndefined();
    // Forgotten on the way: even a clock going back does not bring it back.
    expect(records.find(query())).toBeUndefined();
  });

  it('keeps a drain still running past the window', () => {
    const records = new ResumableRecords<string>();
    records.add(record('req_live', { interruptedAt: NOW - 10 * WINDOW, live: 'draining' }));
    expect(records.find(query())?.requestId).toBe('req_live');
  });

  it('answers once: a used record is found no more, and the next one of the same body is', () => {
    const records = new ResumableRecords<string>();
    const older = record('req_old', { interruptedAt: NOW - 2000 });
    const newer = record('req_new');
    records.add(older);
    records.add(newer);
    const first = records.find(query())!;
    expect(first).toBe(newer);
    first.usedBy = 'req_retry';
    expect(records.find(query())).toBe(older);
    older.usedBy = 'req_retry_2';
    expect(records.find(query())).toBeUndefined();
  });

  it('forgets a removed record', () => {
    const records = new ResumableRecords<string>();
    const kept = record('req_1');
    records.add(kept);
    records.remove(kept);
    records.remove(kept);
    expect(records.find(query())).toBeUndefined();
  });

  it('does not hash the body of a user with no record, nor when no record has the model and protocol', () => {
    const records = new ResumableRecords<string>();
    // A body with no JSON form throws when hashed: finding nothing without throwing shows it was not.
    expect(records.find(query({ user: 'nobody', body: () => undefined }))).toBeUndefined();
    records.add(record('req_1'));
    expect(records.find(query({ model: 'model-b', body: () => undefined }))).toBeUndefined();
    expect(() => records.find(query({ body: () => undefined }))).toThrow();
  });
});

describe('ResumableRecords.load (the server restarted)', () => {
  let directory: string;
  let store: FileRecoveryStore;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'switchyard-resumable-'));
    store = await openRecoveryStore({ directory: join(directory, 'recoveries'), now: () => NOW });
  });
  afterEach(async () => {
    await store.close();
    await rm(directory, { recursive: true, force: true });
  });

  const stored = (requestId: string, options: { reason?: InterruptedReason; state?: RecoveryState; ageMs?: number; user?: string; resumedBy?: string } = {}) =>
    store.add(
      createRecoveryRecord({
        requestId,
        createdAt: Math.floor((NOW - (options.ageMs ?? 1000)) / 1000),
        interruptedReason: options.reason ?? 'client_disconnected',
        state: options.state,
        user: options.user ?? 'alice',
        model: 'model-a',
        protocol: 'openai-chat',
        provider: 'p',
        resumedBy: options.resumedBy,
        requestBodyText: JSON.stringify(BODY),
        responseBodyText: '{}',
      }),
    );

  it('takes the complete, drained, unused records of the window, each for its own user', async () => {
    await stored('req_ok');
    await stored('req_bob', { user: 'bob' });
    await stored('req_error', { reason: 'upstream_error' });
    await stored('req_timeout', { reason: 'upstream_timeout' });
    await stored('req_shutdown', { reason: 'server_shutdown' });
    await stored('req_draining', { state: 'draining' });
    await stored('req_used', { resumedBy: 'req_other' });
    await stored('req_old', { ageMs: WINDOW + 5000 });
    const records = new ResumableRecords<string>();
    await records.load(store, NOW, WINDOW);
    const alice = records.find(query())!;
    expect(alice).toMatchObject({ requestId: 'req_ok', user: 'alice', hash: hashRequestBody(BODY), live: undefined, usedBy: undefined });
    alice.usedBy = 'req_retry';
    // None of the others answers alice: partial, still draining (a server that stopped mid-drain), used, or old.
    expect(records.find(query())).toBeUndefined();
    expect(records.find(query({ user: 'bob' }))?.requestId).toBe('req_bob');
  });
});
