import type { GatewayError, GatewayErrorCode } from '../../core/gateway-error.js';
import type { EncodedError } from '../protocol-codec.js';

/**
 * Status and `error.type` per neutral code (PROTOCOLS.md §2.6). Anthropic uses
 * `invalid_request_error` for 4xx it has no type for, and 529 for overload (the SDK retries it).
 */
const ERRORS: Record<GatewayErrorCode, { status: number; type: string }> = {
  invalid_request: { status: 400, type: 'invalid_request_error' },
  authentication: { status: 401, type: 'authentication_error' },
  billing: { status: 402, type: 'billing_error' },
  permission: { status: 403, type: 'permission_error' },
  not_found: { status: 404, type: 'not_found_error' },
  request_too_large: { status: 413, type: 'request_too_large' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  rate_limit: { status: 429, type: 'rate_limit_error' },
  upstream_error: { status: 500, type: 'api_error' },
  internal: { status: 500, type: 'api_error' },
  timeout: { status: 504, type: 'timeout_error' },
  overloaded: { status: 529, type: 'overloaded_error' },
};

export function anthropicErrorType(error: GatewayError): string {
  return ERRORS[error.code].type;
}

/** `{type: 'error', error: {type, message}, request_id}`; the SDK shows the whole body as its message. */
export function encodeAnthropicMessagesError(error: GatewayError): EncodedError {
  const { status, type } = ERRORS[error.code];
  return { status, body: { type: 'error', error: { type, message: error.message }, request_id: null } };
}

/** The status Anthropic answers with for an `error.type` (for errors that arrive inside a stream). */
export function mapAnthropicErrorTypeToStatus(type: string): number {
  for (const entry of Object.values(ERRORS)) if (entry.type === type) return entry.status;
  return 500;
}
