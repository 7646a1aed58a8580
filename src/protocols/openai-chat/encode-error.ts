import type { GatewayError, GatewayErrorCode } from '../../core/gateway-error.js';
import type { EncodedError } from '../protocol-codec.js';

const ERROR_TYPES: Record<GatewayErrorCode, string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'invalid_request_error',
  permission: 'permission_error',
  not_found: 'invalid_request_error',
  request_too_large: 'invalid_request_error',
  unsupported_media_type: 'invalid_request_error',
  rate_limit: 'rate_limit_error',
  billing: 'insufficient_quota',
  upstream_error: 'server_error',
  overloaded: 'server_error',
  timeout: 'server_error',
  internal: 'server_error',
};

const DEFAULT_CODES: Partial<Record<GatewayErrorCode, string>> = {
  authentication: 'invalid_api_key',
  rate_limit: 'rate_limit_exceeded',
  billing: 'insufficient_quota',
  request_too_large: 'request_too_large',
};

/** `{error: {message, type, param, code}}` (PROTOCOLS.md §1.6); shared by OpenAI Responses. */
export function encodeOpenAIError(error: GatewayError): EncodedError {
  // OpenAI reports quota as 429 and knows no 529 (PROTOCOLS.md §7.8).
  const status = error.code === 'billing' ? 429 : error.status === 529 ? 503 : error.status;
  return {
    status,
    body: {
      error: {
        message: error.message,
        type: ERROR_TYPES[error.code],
        param: error.param ?? null,
        code: error.detailCode ?? DEFAULT_CODES[error.code] ?? null,
      },
    },
  };
}
