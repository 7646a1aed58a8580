import type { Protocol } from '../core/protocol.js';
import type { InterruptedReason, RecoveryRecord, RecoveryState, RecoverySummary } from '../recoveries/recovery-record.js';

/**
 * How a recovery record maps to the rows of switchyard_recoveries and switchyard_recovery_requests
 * (postgres-migrations.ts), both ways: the SQL that reads a record as every reader sees it (a
 * lease run out reads as cut by a stopped instance) and the values that write one.
 */

// A draining record whose lease ran out: its instance stopped (killed, crashed) mid-drain.
export const EXPIRED = "(state = 'draining' AND lease_expires_at < now())";
export const LEASE_ERROR = 'The gateway instance draining this response stopped before its end; the response holds what had arrived.';

export const SUMMARY_COLUMNS = `request_id, created_at,
  CASE WHEN ${EXPIRED} THEN 'server_shutdown' ELSE interrupted_reason END AS interrupted_reason,
  CASE WHEN ${EXPIRED} THEN 'complete' ELSE state END AS state,
  user_name, model, protocol, provider, resumed_by, request_body_hash, response_body_size`;

export interface SummaryRow {
  request_id: string;
  created_at: number;
  interrupted_reason: InterruptedReason;
  state: RecoveryState;
  user_name: string;
  model: string;
  protocol: Protocol;
  provider: string;
  resumed_by: string | null;
  request_body_hash: string;
  response_body_size: number;
}

export interface RecordRow extends SummaryRow {
  error_message: string | null;
  response_body: string;
  request_body: string;
}

// $4 is the state, $14 the lease in milliseconds (recordValues).
export const LEASE_VALUE = "CASE WHEN $4 = 'draining' THEN now() + $14::double precision * interval '1 millisecond' END";

export function recordValues(record: RecoveryRecord, leaseMs: number): unknown[] {
  return [
    record.request_id,
    record.created_at,
    record.interrupted_reason,
    record.state,
    record.user,
    record.model,
    record.protocol,
    record.provider,
    record.error_message ?? null,
    record.resumed_by ?? null,
    record.request.request_body_hash,
    record.response.response_body_size,
    record.response.body_raw,
    leaseMs,
  ];
}

export function toSummary(row: SummaryRow): RecoverySummary {
  const summary: RecoverySummary = {
    request_id: row.request_id,
    created_at: row.created_at,
    interrupted_reason: row.interrupted_reason,
    state: row.state,
    request_body_hash: row.request_body_hash,
    user: row.user_name,
    model: row.model,
    protocol: row.protocol,
    provider: row.provider,
    response_body_size: row.response_body_size,
  };
  if (row.resumed_by !== null) summary.resumed_by = row.resumed_by;
  return summary;
}

/** The same record the file store returns: optional fields absent, not null, in the same key order. */
export function toRecord(row: RecordRow): RecoveryRecord {
  const record: RecoveryRecord = {
    request_id: row.request_id,
    created_at: row.created_at,
    interrupted_reason: row.interrupted_reason,
    state: row.state,
    user: row.user_name,
    model: row.model,
    protocol: row.protocol,
    provider: row.provider,
    request: { body_raw: row.request_body, request_body_hash: row.request_body_hash },
    response: { body_raw: row.response_body, response_body_size: row.response_body_size },
  };
  if (row.error_message !== null) record.error_message = row.error_message;
  if (row.resumed_by !== null) record.resumed_by = row.resumed_by;
  return record;
}
