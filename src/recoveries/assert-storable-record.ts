import { isRequestBodyHash } from './hash-request-body.js';
import { INTERRUPTED_REASONS, isStorableRequestId, RECOVERY_STATES, type RecoveryRecord } from './recovery-record.js';
import { RecoveryStoreError } from './recovery-store-error.js';

/**
 * Checked before anything touches the disk: the request id becomes a file name, and the index
 * refuses to load an entry of the wrong shape (STORE_CORRUPT), so a bad record must never get in.
 */
export function assertStorableRecord(record: RecoveryRecord): void {
  const problem = findProblem(record);
  if (problem) throw new RecoveryStoreError('INVALID_RECORD', `Cannot store the recovery record ${JSON.stringify(record?.request_id)}: ${problem}.`);
}

function findProblem(record: RecoveryRecord): string | undefined {
  if (!isStorableRequestId(record?.request_id)) return 'request_id must be 1-200 characters of A-Z a-z 0-9 _ . - not starting with a dot';
  if (!Number.isFinite(record.created_at)) return 'created_at must be a number (Unix seconds)';
  if (!INTERRUPTED_REASONS.includes(record.interrupted_reason)) return `unknown interrupted_reason ${JSON.stringify(record.interrupted_reason)}`;
  if (!RECOVERY_STATES.includes(record.state)) return `unknown state ${JSON.stringify(record.state)}`;
  for (const field of ['user', 'model', 'protocol', 'provider'] as const) {
    if (typeof record[field] !== 'string') return `${field} must be a string`;
  }
  if (typeof record.request?.body_raw !== 'string') return 'request.body_raw must be a string';
  if (!isRequestBodyHash(record.request.request_body_hash)) return 'request.request_body_hash must be 16 lowercase hex characters';
  if (typeof record.response?.body_raw !== 'string') return 'response.body_raw must be a string';
  if (!Number.isInteger(record.response.response_body_size)) return 'response.response_body_size must be an integer';
  return undefined;
}
