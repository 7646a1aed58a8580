import { describe, expect, it } from 'vitest';
import { jsonStringPieces, recordJsonPieces } from './record-json-pieces.js';
import { createRecoveryRecord, type RecoveryRecordInput } from './recovery-record.js';

// Text that JSON escapes in every way: quotes, backslashes, control characters, line breaks,
// surrogate pairs (😀 is \ud83d\ude00) and a lone half of one, which JSON.stringify escapes.
const TRICKY = 'a"b\\c\n\u0001é😀😀x\ud83dy\ude00z\u2028' + '😀'.repeat(5);

const input: RecoveryRecordInput = {
  requestId: 'req_1',
  createdAt: 1_700_000_000,
  interruptedReason: 'upstream_error',
  user: 'alice',
  model: 'gpt-x',
  protocol: 'openai-chat',
  provider: 'mock',
  requestBodyText: JSON.stringify({ model: 'gpt-x', messages: [{ role: 'user', content: TRICKY }] }),
  responseBodyText: JSON.stringify({ id: 'c1', choices: [{ message: { content: TRICKY.repeat(3) } }] }),
};

describe('jsonStringPieces', () => {
  it('gives JSON.stringify of the text, whatever the piece size, never splitting a surrogate pair', () => {
    for (let size = 1; size <= TRICKY.length + 1; size += 1) {
      const pieces = [...jsonStringPieces(TRICKY, size)];
      expect(pieces.join(''), `pieces of ${size}`).toBe(JSON.stringify(TRICKY));
      if (size < TRICKY.length) expect(pieces.length).toBeGreaterThan(2);
    }
  });

  it('keeps each piece to its size in characters of the text', () => {
    const text = 'abc😀'.repeat(1000);
    const pieces = [...jsonStringPieces(text, 64)];
    // Between the opening and closing quotes, no piece holds more than 64 characters of the text.
    expect(pieces.slice(1, -1).every((piece) => piece.length <= 64)).toBe(true);
    expect(pieces.join('')).toBe(JSON.stringify(text));
  });
});

describe('recordJsonPieces', () => {
  it('together are JSON.stringify of a record, with and without its optional fields', () => {
    const records = [
      createRecoveryRecord(input),
      createRecoveryRecord({ ...input, errorMessage: 'upstream closed "early"', resumedBy: 'req_2', state: 'draining' }),
      createRecoveryRecord({ ...input, requestBodyText: '{}', responseBodyText: '' }),
    ];
    for (const record of records) {
      for (const size of [1, 2, 3, 7, 64, 1 << 20]) expect([...recordJsonPieces(record, size)].join(''), `pieces of ${size}`).toBe(JSON.stringify(record));
    }
  });

  it('cuts a multi-megabyte body into pieces', () => {
    const record = createRecoveryRecord({ ...input, responseBodyText: JSON.stringify({ content: 'x😀'.repeat(1_000_000) }) });
    const pieces = [...recordJsonPieces(record)];
    expect(pieces.length).toBeGreaterThan(10);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(256 * 1024 * 2);
    expect(JSON.parse(pieces.join(''))).toEqual(record);
  });
});
