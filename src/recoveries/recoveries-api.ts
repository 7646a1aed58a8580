import { GatewayError } from '../core/gateway-error.js';
import { hashRequestBody } from './hash-request-body.js';
import type { RecoveryRecord, RecoverySummary } from './recovery-record.js';
import { RecoveryStoreError } from './recovery-store-error.js';
import type { RecoveryStore } from './recovery-store.js';

/**
 * The recoveries endpoints (docs/recoveries.md, "HTTP API") as plain handlers: the server authenticates, parses the
 * body and query, calls one of these with the key's user, and sends `{ status, body }` as JSON.
 *
 * | Endpoint                                   | Status | body.reason / shape                                   |
 * |--------------------------------------------|--------|-------------------------------------------------------|
 * | GET /v1/recoveries                         | 200    | `{count, items: summary[]}`                           |
 * | POST /v1/recoveries/lookup                 | 200    | `{items: summary[]}` (empty when nothing matches)     |
 * |                                            | 400    | body not a JSON object: GatewayError invalid_request  |
 * | GET /v1/recoveries/{id}                    | 200    | the stored record detail                              |
 * |                                            | 404    | `RECOVERY_NOT_FOUND` (also another user's record)     |
 * | DELETE /v1/recoveries/{id}                 | 200    | `{request_id, deleted: true, message, reason: OK}`    |
 * |                                            | 404    | `{request_id, deleted: false, ..., RECOVERY_NOT_FOUND}` |
 * | DELETE /v1/recoveries?all=true             | 200    | `{deleted: N, message, reason: OK}`                   |
 * | DELETE /v1/recoveries?all=true&dry_run=true| 200    | `{deleted: 0, would_delete: N, message, reason: DRY_RUN}` |
 * | DELETE /v1/recoveries (no all=true)        | 400    | `{deleted: 0, message, reason: CONFIRMATION_REQUIRED}` |
 *
 * A store failure is thrown as a GatewayError: 503 `overloaded` when another process holds the
 * store lock too long, else 500 `internal`; the file path stays in `cause`, for the log only.
 * Summaries carry the four documented fields (docs/recoveries.md) plus state, model, protocol and response_body_size; the owner
 * and the provider are not shown.
 */
export interface RecoveriesApiResponse {
  status: number;
  body: Record<string, unknown>;
}

export type RecoveriesApiSummary = Omit<RecoverySummary, 'user' | 'provider'>;

export async function listRecoveriesResponse(store: RecoveryStore, user: string): Promise<RecoveriesApiResponse> {
  const items = (await guardStore(() => store.list(user))).map(toApiSummary);
  return { status: 200, body: { count: items.length, items } };
}

export async function lookupRecoveriesResponse(store: RecoveryStore, user: string, body: unknown): Promise<RecoveriesApiResponse> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'The lookup body must be the original request body: a JSON object.');
  }
  const items = (await guardStore(() => store.lookup(hashRequestBody(body), user))).map(toApiSummary);
  return { status: 200, body: { items } };
}

export async function getRecoveryResponse(store: RecoveryStore, user: string, requestId: string): Promise<RecoveriesApiResponse> {
  const record = await guardStore(() => store.get(requestId, user));
  if (!record) {
    const message = notFoundMessage(requestId);
    return {
      status: 404,
      body: { error: { message, type: 'not_found_error', code: 'RECOVERY_NOT_FOUND' }, request_id: requestId, reason: 'RECOVERY_NOT_FOUND', message },
    };
  }
  return { status: 200, body: toRecoveryDetail(record) };
}

export async function deleteRecoveryResponse(store: RecoveryStore, user: string, requestId: string): Promise<RecoveriesApiResponse> {
  const deleted = await guardStore(() => store.remove(requestId, user));
  return deleted
    ? { status: 200, body: { request_id: requestId, deleted: true, message: `Recovery record ${requestId} deleted.`, reason: 'OK' } }
    : { status: 404, body: { request_id: requestId, deleted: false, message: notFoundMessage(requestId), reason: 'RECOVERY_NOT_FOUND' } };
}

export async function deleteAllRecoveriesResponse(
  store: RecoveryStore,
  user: string,
  query: { all?: unknown; dry_run?: unknown },
): Promise<RecoveriesApiResponse> {
  // `all` is required and must be `true`, for a dry run as well, so a bare DELETE never empties the store.
  if (query.all !== 'true') {
    return { status: 400, body: { deleted: 0, message: 'Deleting every recovery record needs the query parameter all=true.', reason: 'CONFIRMATION_REQUIRED' } };
  }
  if (query.dry_run === 'true') {
    const wouldDelete = await guardStore(() => store.removeAll(user, { dryRun: true }));
    return { status: 200, body: { deleted: 0, would_delete: wouldDelete, message: `Dry run: ${wouldDelete} recovery record(s) would be deleted.`, reason: 'DRY_RUN' } };
  }
  const deleted = await guardStore(() => store.removeAll(user));
  return { status: 200, body: { deleted, message: `${deleted} recovery record(s) deleted.`, reason: 'OK' } };
}

export function toApiSummary(summary: RecoverySummary): RecoveriesApiSummary {
  return {
    request_id: summary.request_id,
    created_at: summary.created_at,
    interrupted_reason: summary.interrupted_reason,
    state: summary.state,
    request_body_hash: summary.request_body_hash,
    model: summary.model,
    protocol: summary.protocol,
    response_body_size: summary.response_body_size,
    ...(summary.resumed_by !== undefined && { resumed_by: summary.resumed_by }),
  };
}

/** The record as `GET /v1/recoveries/{id}` documents it (docs/recoveries.md), plus model, protocol and the client-safe error message. */
export function toRecoveryDetail(record: RecoveryRecord): Record<string, unknown> {
  return {
    request_id: record.request_id,
    created_at: record.created_at,
    interrupted_reason: record.interrupted_reason,
    state: record.state,
    model: record.model,
    protocol: record.protocol,
    ...(record.error_message !== undefined && { error_message: record.error_message }),
    ...(record.resumed_by !== undefined && { resumed_by: record.resumed_by }),
    request: { body_raw: record.request.body_raw, request_body_hash: record.request.request_body_hash },
    response: { body_raw: record.response.body_raw, response_body_size: record.response.response_body_size },
  };
}

function notFoundMessage(requestId: string): string {
  return `No recovery record ${requestId}: it does not exist, expired, or was deleted.`;
}

async function guardStore<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (!RecoveryStoreError.is(error)) throw error;
    if (error.code === 'STORE_LOCKED') throw new GatewayError('overloaded', 'The recoveries store is busy; retry shortly.', { cause: error });
    throw new GatewayError('internal', 'The recoveries store is unavailable; see the gateway log.', { cause: error });
  }
}
