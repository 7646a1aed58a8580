import { describe, expect, it } from 'vitest';
import { hashRequestBodyText } from './hash-request-body.js';
import { createRecoveryRecord, isStorableRequestId, OMITTED_TOO_LARGE, REQUEST_BODY_STORE_LIMIT_BYTES, toRecoverySummary, type RecoveryRecordInput } from './recovery-record.js';

const input: RecoveryRecordInput = {
  requestId: 'req_1',
  createdAt: 1_700_000_000,
  interruptedReason: 'client_disconnected',
  user: 'alice',
  model: 'gpt-x',
  protocol: 'openai-chat',
  provider: 'mock',
  requestBodyText: '{ "model": "gpt-x", "messages": [] }',
  responseBodyText: '{"id":"chatcmpl-1","content":"héllo"}',
};

/** A JSON body of exactly `bytes` bytes. */
function bodyOfSize(bytes: number): string {
  const frame = '{"x":""}';
  return `{"x":"${'a'.repeat(bytes - frame.length)}"}`;
}

describe('createRecoveryRecord', () => {
  it('builds the record with the documented field names', () => {
    expect(createRecoveryRecord({ ...input, errorMessage: 'upstream closed' })).toEqual({
      request_id: 'req_1',
      created_at: 1_700_000_000,
      interrupted_reason: 'client_disconnected',
      state: 'complete',
      user: 'alice',
      model: 'gpt-x',
      protocol: 'openai-chat',
      provider: 'mock',
      error_message: 'upstream closed',
      request: { body_raw: input.requestBodyText, request_body_hash: hashRequestBodyText(input.requestBodyText) },
      // Bytes, not characters: é is two bytes in UTF-8.
      response: { body_raw: input.responseBodyText, response_body_size: 38 },
    });
    expect(createRecoveryRecord(input)).not.toHaveProperty('error_message');
  });

  it('hashes the body text as parsed JSON: key order and whitespace do not change the hash', () => {
    const reordered = JSON.stringify(Object.entries(JSON.parse(input.requestBodyText) as object).reverse().reduce((body, [key, value]) => ({ ...body, [key]: value }), {}), null, 2);
    expect(reordered).not.toBe(input.requestBodyText);
    expect(createRecoveryRecord({ ...input, requestBodyText: reordered }).request.request_body_hash).toBe(createRecoveryRecord(input).request.request_body_hash);
  });

  it('keeps a body of exactly 20 MB and omits a larger one, hashing the full body either way', () => {
    const atLimit = bodyOfSize(REQUEST_BODY_STORE_LIMIT_BYTES);
    expect(createRecoveryRecord({ ...input, requestBodyText: atLimit }).request.body_raw).toBe(atLimit);
    const overLimit = bodyOfSize(REQUEST_BODY_STORE_LIMIT_BYTES + 1);
    const record = createRecoveryRecord({ ...input, requestBodyText: overLimit });
    expect(record.request.body_raw).toBe(OMITTED_TOO_LARGE);
    expect(record.request.request_body_hash).toBe(hashRequestBodyText(overLimit));
  });

  it('summarises without bodies', () => {
    const summary = toRecoverySummary(createRecoveryRecord(input));
    expect(summary).toEqual({
      request_id: 'req_1',
      created_at: 1_700_000_000,
      interrupted_reason: 'client_disconnected',
      state: 'complete',
      request_body_hash: hashRequestBodyText(input.requestBodyText),
      user: 'alice',
      model: 'gpt-x',
      protocol: 'openai-chat',
      provider: 'mock',
      response_body_size: 38,
    });
  });
});

describe('isStorableRequestId', () => {
  it('accepts file-name-safe ids only', () => {
    for (const id of ['req_1', 'chatcmpl-abc.DEF_9', 'a'.repeat(200)]) expect(isStorableRequestId(id)).toBe(true);
    for (const id of ['', '.hidden', '../etc', 'a/b', 'a\\b', 'a b', 'a'.repeat(201), 7]) expect(isStorableRequestId(id)).toBe(false);
  });
});
