import { describe, expect, it } from 'vitest';
import type { RecoverySummary } from './recovery-record.js';
import { selectRecordsToPrune } from './retention.js';

function summary(id: string, createdAt: number): RecoverySummary {
  return { request_id: id, created_at: createdAt, interrupted_reason: 'upstream_error', state: 'complete', request_body_hash: '0000000000000000', user: 'u', model: 'm', protocol: 'gemini', provider: 'p', response_body_size: 0 };
}
const ids = (records: RecoverySummary[]): string[] => records.map((record) => record.request_id);

describe('selectRecordsToPrune', () => {
  const nowMs = 1_000_000 * 1000;

  it('keeps everything within both limits', () => {
    const records = [summary('a', 999_990), summary('b', 999_995)];
    expect(selectRecordsToPrune(records, { maxRecords: 2, maxAgeMs: 60_000 }, nowMs)).toEqual({ kept: records, pruned: [] });
  });

  it('prunes the oldest over the count, whatever the insertion order', () => {
    const records = [summary('new', 999_999), summary('old', 999_000), summary('mid', 999_500), summary('mid-later', 999_500)];
    const { kept, pruned } = selectRecordsToPrune(records, { maxRecords: 2, maxAgeMs: 0 }, nowMs);
    expect(ids(kept)).toEqual(['new', 'mid-later']);
    expect(ids(pruned)).toEqual(['old', 'mid']);
  });

  it('prunes records older than the age limit; 0 means no age limit', () => {
    const records = [summary('expired', 1_000_000 - 61), summary('fresh', 1_000_000 - 59)];
    expect(ids(selectRecordsToPrune(records, { maxRecords: 10, maxAgeMs: 60_000 }, nowMs).pruned)).toEqual(['expired']);
    expect(selectRecordsToPrune(records, { maxRecords: 10, maxAgeMs: 0 }, nowMs).pruned).toEqual([]);
  });

  it('applies both limits together without pruning a record twice', () => {
    const records = [summary('expired', 1), summary('a', 999_997), summary('b', 999_998), summary('c', 999_999)];
    const { kept, pruned } = selectRecordsToPrune(records, { maxRecords: 2, maxAgeMs: 60_000 }, nowMs);
    expect(ids(kept)).toEqual(['b', 'c']);
    expect(ids(pruned)).toEqual(['expired', 'a']);
  });
});
