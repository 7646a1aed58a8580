import type { GatewayError, GatewayErrorCode } from '../../core/gateway-error.js';
import type { EncodedError } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';

/** google.rpc status names (PROTOCOLS.md §4.7). */
const RPC_STATUSES: Record<GatewayErrorCode, string> = {
  invalid_request: 'INVALID_ARGUMENT',
  authentication: 'UNAUTHENTICATED',
  permission: 'PERMISSION_DENIED',
  not_found: 'NOT_FOUND',
  request_too_large: 'INVALID_ARGUMENT',
  unsupported_media_type: 'INVALID_ARGUMENT',
  rate_limit: 'RESOURCE_EXHAUSTED',
  billing: 'RESOURCE_EXHAUSTED',
  upstream_error: 'INTERNAL',
  overloaded: 'UNAVAILABLE',
  timeout: 'DEADLINE_EXCEEDED',
  internal: 'INTERNAL',
};

/**
 * `{error: {code, message, status}}`, the envelope @google/genai parses into `ApiError`. Google
 * reports quota as 429 RESOURCE_EXHAUSTED and knows no 402 or 529 (PROTOCOLS.md §7.8); a field at
 * fault is named the way Google does, in a `google.rpc.BadRequest` detail.
 */
export function encodeGeminiError(error: GatewayError): EncodedError {
  const status = error.code === 'billing' ? 429 : error.status === 529 ? 503 : error.status;
  const body: JsonObject = { code: status, message: error.message, status: RPC_STATUSES[error.code] };
  if (error.param !== undefined) {
    body.details = [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: error.param, description: error.message }] }];
  }
  return { status, body: { error: body } };
}
