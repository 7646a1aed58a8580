import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../core/gateway-error.js';
import { hashRequestBody } from './hash-request-body.js';
import {
  deleteAllRecoveriesResponse,
  deleteRecoveryResponse,
  getRecoveryResponse,
  listRecoveriesResponse,
  lookupRecoveriesResponse,
} from './recoveries-api.js';
import { createRecoveryRecord, OMITTED_TOO_LARGE, REQUEST_BODY_STORE_LIMIT_BYTES } from './recovery-record.js';
import { openRecoveryStore, type RecoveryStore } from './recovery-store.js';
import { openPostgresRecoveryStore } from '../store/postgres-recovery-store.js';
import { createTestDatabase, DATABASE_URL, NO_DATABASE_REASON, type TestDatabase } from '../../test/helpers/test-database.js';

const requestBody = { model: 'model-a', stream: true, messages: [{ role: 'user', content: 'hello' }] };
const record = createRecoveryRecord({
  requestId: 'req_alice',
  createdAt: 1_750_000_000,
  interruptedReason: 'client_disconnected',
  user: 'alice',
  model: 'model-a',
  protocol: 'openai-chat',
  provider: 'secret-provider',
  requestBodyText: JSON.stringify(requestBody, null, 2),
  responseBodyText: '{"id":"chatcmpl-1","object":"chat.completion"}',
});
const summary = {
  request_id: 'req_alice',
  created_at: 1_750_000_000,
  interrupted_reason: 'client_disconnected',
  state: 'complete',
  request_body_hash: hashRequestBody(requestBody),
  model: 'model-a',
  protocol: 'openai-chat',
  response_body_size: 46,
};

let store: RecoveryStore;

/** The same suite on each store (docs/team.md): the files under the home directory, and PostgreSQL. */
const STORES = [
  { kind: 'files', available: true },
  { kind: 'postgres', available: DATABASE_URL !== undefined },
] as const;

describe.each(STORES)('the recoveries API on the $kind store', ({ kind, available }) => {
  if (!available) {
    it.skip(`${kind}: ${NO_DATABASE_REASON}`, () => undefined);
    return;
  }
  let directory: string;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    if (kind === 'postgres') database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'switchyard-api-'));
    store = database
      ? await openPostgresRecoveryStore({ url: database.url, now: () => 1_750_000_000_000 })
      : await openRecoveryStore({ directory, now: () => 1_750_000_000_000 });
    await store.removeAll();
    await store.add(record);
    await store.add({ ...record, request_id: 'req_bob', user: 'bob' });
  });
  afterEach(async () => {
    await store.close();
    await rm(directory, { recursive: true, force: true });
  });

  describe('GET /v1/recoveries', () => {
    it("lists the user's summaries, without owner, provider or bodies", async () => {
      expect(await listRecoveriesResponse(store, 'alice')).toEqual({ status: 200, body: { count: 1, items: [summary] } });
      expect(await listRecoveriesResponse(store, 'carol')).toEqual({ status: 200, body: { count: 0, items: [] } });
    });
  });

  describe('POST /v1/recoveries/lookup', () => {
    it('finds the record by the body in another key order', async () => {
      const reordered = { messages: [{ content: 'hello', role: 'user' }], stream: true, model: 'model-a' };
      expect(await lookupRecoveriesResponse(store, 'alice', reordered)).toEqual({ status: 200, body: { items: [summary] } });
      expect(await lookupRecoveriesResponse(store, 'alice', { ...reordered, stream: false })).toEqual({ status: 200, body: { items: [] } });
      expect((await lookupRecoveriesResponse(store, 'bob', reordered)).body).toEqual({ items: [{ ...summary, request_id: 'req_bob' }] });
    });

    it('is a 400 invalid_request when the body is not a JSON object', async () => {
      for (const body of [null, [], 'text', 42, undefined]) {
        const failure = await lookupRecoveriesResponse(store, 'alice', body).catch((error: unknown) => error);
        expect(GatewayError.is(failure)).toBe(true);
        expect(failure).toMatchObject({ code: 'invalid_request', status: 400 });
      }
    });
  });

  describe('GET /v1/recoveries/{id}', () => {
    it('returns the stored record detail', async () => {
      expect(await getRecoveryResponse(store, 'alice', 'req_alice')).toEqual({
        status: 200,
        body: {
          request_id: 'req_alice',
          created_at: 1_750_000_000,
          interrupted_reason: 'client_disconnected',
          state: 'complete',
          model: 'model-a',
          protocol: 'openai-chat',
          request: { body_raw: JSON.stringify(requestBody, null, 2), request_body_hash: summary.request_body_hash },
          response: { body_raw: '{"id":"chatcmpl-1","object":"chat.completion"}', response_body_size: 46 },
        },
      });
    });

    it('still returns the response of a record whose request body was over 20 MB', async () => {
      const large = createRecoveryRecord({ ...toInput(), requestId: 'req_large', requestBodyText: JSON.stringify({ pad: 'a'.repeat(REQUEST_BODY_STORE_LIMIT_BYTES) }) });
      await store.add(large);
      const { body } = await getRecoveryResponse(store, 'alice', 'req_large');
      expect(body.request).toEqual({ body_raw: OMITTED_TOO_LARGE, request_body_hash: large.request.request_body_hash });
      expect(body.response).toEqual(large.response);
    });

    it("is a 404 RECOVERY_NOT_FOUND for a missing id and for another user's record alike", async () => {
      const missing = await getRecoveryResponse(store, 'alice', 'req_none');
      const foreign = await getRecoveryResponse(store, 'alice', 'req_bob');
      const message = 'No recovery record req_none: it does not exist, expired, or was deleted.';
      expect(missing).toEqual({ status: 404, body: { error: { message, type: 'not_found_error', code: 'RECOVERY_NOT_FOUND' }, request_id: 'req_none', reason: 'RECOVERY_NOT_FOUND', message } });
      expect(JSON.stringify(foreign).replaceAll('req_bob', 'req_none')).toBe(JSON.stringify(missing));
    });
  });

  describe('DELETE /v1/recoveries/{id}', () => {
    it('deletes with reason OK, then answers 404 RECOVERY_NOT_FOUND', async () => {
      expect(await deleteRecoveryResponse(store, 'alice', 'req_alice')).toEqual({ status: 200, body: { request_id: 'req_alice', deleted: true, message: 'Recovery record req_alice deleted.', reason: 'OK' } });
      expect(await deleteRecoveryResponse(store, 'alice', 'req_alice')).toEqual({
        status: 404,
        body: { request_id: 'req_alice', deleted: false, message: 'No recovery record req_alice: it does not exist, expired, or was deleted.', reason: 'RECOVERY_NOT_FOUND' },
      });
    });

    it("cannot delete another user's record", async () => {
      expect((await deleteRecoveryResponse(store, 'alice', 'req_bob')).body).toMatchObject({ deleted: false, reason: 'RECOVERY_NOT_FOUND' });
      expect(await store.get('req_bob')).toBeDefined();
    });
  });

  describe('DELETE /v1/recoveries', () => {
    it('needs all=true, for a dry run as well: 400 CONFIRMATION_REQUIRED, nothing deleted', async () => {
      for (const query of [{}, { all: 'false' }, { all: 'yes' }, { dry_run: 'true' }, { all: ['true', 'true'] }]) {
        expect(await deleteAllRecoveriesResponse(store, 'alice', query)).toEqual({
          status: 400,
          body: { deleted: 0, message: 'Deleting every recovery record needs the query parameter all=true.', reason: 'CONFIRMATION_REQUIRED' },
        });
      }
      expect(await store.list()).toHaveLength(2);
    });

    it('counts with dry_run=true (DRY_RUN), then deletes only the caller’s records (OK)', async () => {
      expect(await deleteAllRecoveriesResponse(store, 'alice', { all: 'true', dry_run: 'true' })).toEqual({
        status: 200,
        body: { deleted: 0, would_delete: 1, message: 'Dry run: 1 recovery record(s) would be deleted.', reason: 'DRY_RUN' },
      });
      expect(await deleteAllRecoveriesResponse(store, 'alice', { all: 'true', dry_run: 'false' })).toEqual({ status: 200, body: { deleted: 1, message: '1 recovery record(s) deleted.', reason: 'OK' } });
      expect(await deleteAllRecoveriesResponse(store, 'alice', { all: 'true' })).toEqual({ status: 200, body: { deleted: 0, message: '0 recovery record(s) deleted.', reason: 'OK' } });
      expect((await store.list()).map((item) => item.request_id)).toEqual(['req_bob']);
    });
  });

});

describe('store failures', () => {
  it('become a 500 GatewayError whose message hides the file path', async () => {
    const corrupt = await mkdtemp(join(tmpdir(), 'switchyard-api-corrupt-'));
    await mkdir(corrupt, { recursive: true });
    await writeFile(join(corrupt, 'index.json'), '{oops');
    const broken = await openRecoveryStore({ directory: corrupt });
    const failure = await listRecoveriesResponse(broken, 'alice').catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'GatewayError', code: 'internal', status: 500, message: 'The recoveries store is unavailable; see the gateway log.' });
    expect((failure as Error).message).not.toContain(corrupt);
    expect((failure as GatewayError).cause).toMatchObject({ code: 'STORE_CORRUPT' });
    await broken.close();
    await rm(corrupt, { recursive: true, force: true });
  });
});

function toInput() {
  return {
    requestId: record.request_id,
    createdAt: record.created_at,
    interruptedReason: record.interrupted_reason,
    user: record.user,
    model: record.model,
    protocol: record.protocol,
    provider: record.provider,
    requestBodyText: record.request.body_raw,
    responseBodyText: record.response.body_raw,
  };
}
