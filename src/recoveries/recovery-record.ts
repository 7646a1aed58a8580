import type { Protocol } from '../core/protocol.js';
import { hashRequestBodyText } from './hash-request-body.js';

/**
 * A stored record of a generation that did not complete normally towards its client
 * (docs/recoveries.md). Field names are the wire names of the recoveries API so a record is stored, listed and
 * served without renaming.
 */

export type InterruptedReason = 'client_disconnected' | 'upstream_error' | 'upstream_timeout' | 'server_shutdown';

export const INTERRUPTED_REASONS: readonly InterruptedReason[] = ['client_disconnected', 'upstream_error', 'upstream_timeout', 'server_shutdown'];

/**
 * `draining`: the client left and the upstream is still being read; the record is rewritten as it
 * grows and completed in place. Records stored before the field existed read as `complete`.
 */
export type RecoveryState = 'draining' | 'complete';

export const RECOVERY_STATES: readonly RecoveryState[] = ['draining', 'complete'];

/** Stored instead of the original body when it exceeded REQUEST_BODY_STORE_LIMIT_BYTES. */
export const OMITTED_TOO_LARGE = '__OMITTED_TOO_LARGE__';

/** Over 20 MB the body is not stored (docs/recoveries.md, "What a record holds"). */
export const REQUEST_BODY_STORE_LIMIT_BYTES = 20 * 1024 * 1024;

export interface RecoveryRecord {
  request_id: string;
  /** Unix time, seconds. */
  created_at: number;
  interrupted_reason: InterruptedReason;
  state: RecoveryState;
  /** The user that owns the API key; only that user sees the record. */
  user: string;
  model: string;
  /** The inbound protocol: the shape of request.body_raw and response.body_raw. */
  protocol: Protocol;
  provider: string;
  /** Client-safe text of the upstream failure (upstream_error, upstream_timeout). */
  error_message?: string;
  /** The request a retry answered from this record made (docs/recoveries.md, "Resume on retry"): it answers no other. */
  resumed_by?: string;
  request: { body_raw: string; request_body_hash: string };
  response: { body_raw: string; response_body_size: number };
}

/** What the index holds for each record: small and constant-size, no bodies. */
export interface RecoverySummary {
  request_id: string;
  created_at: number;
  interrupted_reason: InterruptedReason;
  state: RecoveryState;
  request_body_hash: string;
  user: string;
  model: string;
  protocol: Protocol;
  provider: string;
  response_body_size: number;
  resumed_by?: string;
}

export interface RecoveryRecordInput {
  requestId: string;
  /** Unix time, seconds (the caller owns the clock). */
  createdAt: number;
  interruptedReason: InterruptedReason;
  /** Default `complete`. */
  state?: RecoveryState;
  user: string;
  model: string;
  protocol: Protocol;
  provider: string;
  errorMessage?: string;
  /** The retry this record answered, if one did. */
  resumedBy?: string;
  /** The original request body exactly as received (parsed again for its hash). */
  requestBodyText: string;
  /** The response JSON as the client's protocol returns it without streaming (maybe partial). */
  responseBodyText: string;
}

/** Builds a record; the hash always covers the full body, even when the body is not kept. */
export function createRecoveryRecord(input: RecoveryRecordInput): RecoveryRecord {
  const tooLarge = Buffer.byteLength(input.requestBodyText, 'utf8') > REQUEST_BODY_STORE_LIMIT_BYTES;
  return {
    request_id: input.requestId,
    created_at: input.createdAt,
    interrupted_reason: input.interruptedReason,
    state: input.state ?? 'complete',
    user: input.user,
    model: input.model,
    protocol: input.protocol,
    provider: input.provider,
    ...(input.errorMessage !== undefined && { error_message: input.errorMessage }),
    ...(input.resumedBy !== undefined && { resumed_by: input.resumedBy }),
    request: { body_raw: tooLarge ? OMITTED_TOO_LARGE : input.requestBodyText, request_body_hash: hashRequestBodyText(input.requestBodyText) },
    response: { body_raw: input.responseBodyText, response_body_size: Buffer.byteLength(input.responseBodyText, 'utf8') },
  };
}

export function toRecoverySummary(record: RecoveryRecord): RecoverySummary {
  return {
    request_id: record.request_id,
    created_at: record.created_at,
    interrupted_reason: record.interrupted_reason,
    state: record.state ?? 'complete',
    request_body_hash: record.request.request_body_hash,
    user: record.user,
    model: record.model,
    protocol: record.protocol,
    provider: record.provider,
    response_body_size: record.response.response_body_size,
    ...(record.resumed_by !== undefined && { resumed_by: record.resumed_by }),
  };
}

/**
 * Request ids become file names (`records/<id>.json`), so only a safe alphabet is accepted: no
 * path separators, no leading dot (temp files start with one), bounded length.
 */
export function isStorableRequestId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199}$/.test(value);
}
