import { DEFAULT_ERROR_STATUS, type GatewayError, type GatewayErrorCode } from '../core/gateway-error.js';

/** The three error envelopes: OpenAI Chat and Responses share one. */
export type ErrorFamily = 'openai' | 'anthropic' | 'gemini';

/**
 * How one client protocol answers a code: its `type` (Gemini: the google.rpc `status`), and a
 * `status` only where the protocol needs its own (Anthropic's 529, OpenAI's 429 for quota).
 * Without one, the client gets the error's status: the code's default, or the upstream's own.
 */
interface ErrorAnswer {
  type: string;
  status?: number;
  /** OpenAI's `error.code` when the error brings no more precise one. */
  code?: string;
}

/**
 * The one table from condition to status and type, read by every error encoder (docs/errors.md
 * lists it). Statuses not pinned here come from DEFAULT_ERROR_STATUS (core/gateway-error.ts).
 * Overload is 529 `overloaded_error` for Anthropic, which its SDK retries, and 503 for the others,
 * which know no 529 (their SDKs retry any 5xx); quota is Anthropic's 402 and a 429 elsewhere.
 * `internal` comes before `upstream_error`: a lookup by Anthropic type takes the first row, and
 * Anthropic answers `api_error` with a 500.
 */
export const ERROR_TABLE: Readonly<Record<GatewayErrorCode, Readonly<Record<ErrorFamily, ErrorAnswer>>>> = {
  invalid_request: {
    openai: { type: 'invalid_request_error' },
    anthropic: { type: 'invalid_request_error' },
    gemini: { type: 'INVALID_ARGUMENT' },
  },
  authentication: {
    openai: { type: 'invalid_request_error', code: 'invalid_api_key' },
    anthropic: { type: 'authentication_error' },
    gemini: { type: 'UNAUTHENTICATED' },
  },
  permission: {
    openai: { type: 'permission_error' },
    anthropic: { type: 'permission_error' },
    gemini: { type: 'PERMISSION_DENIED' },
  },
  not_found: {
    openai: { type: 'invalid_request_error' },
    anthropic: { type: 'not_found_error' },
    gemini: { type: 'NOT_FOUND' },
  },
  request_too_large: {
    openai: { type: 'invalid_request_error', code: 'request_too_large' },
    anthropic: { type: 'request_too_large' },
    gemini: { type: 'INVALID_ARGUMENT' },
  },
  unsupported_media_type: {
    openai: { type: 'invalid_request_error' },
    anthropic: { type: 'invalid_request_error' },
    gemini: { type: 'INVALID_ARGUMENT' },
  },
  rate_limit: {
    openai: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
    anthropic: { type: 'rate_limit_error' },
    gemini: { type: 'RESOURCE_EXHAUSTED' },
  },
  billing: {
    openai: { type: 'insufficient_quota', status: 429, code: 'insufficient_quota' },
    anthropic: { type: 'billing_error', status: 402 },
    gemini: { type: 'RESOURCE_EXHAUSTED', status: 429 },
  },
  internal: {
    openai: { type: 'server_error' },
    anthropic: { type: 'api_error' },
    gemini: { type: 'INTERNAL' },
  },
  upstream_error: {
    openai: { type: 'server_error' },
    anthropic: { type: 'api_error' },
    gemini: { type: 'INTERNAL' },
  },
  overloaded: {
    openai: { type: 'server_error', status: 503 },
    anthropic: { type: 'overloaded_error', status: 529 },
    gemini: { type: 'UNAVAILABLE', status: 503 },
  },
  timeout: {
    openai: { type: 'server_error' },
    anthropic: { type: 'timeout_error' },
    gemini: { type: 'DEADLINE_EXCEEDED' },
  },
};

/** The status a client of `family` gets for `error`. */
export function mapErrorToStatus(error: GatewayError, family: ErrorFamily): number {
  return ERROR_TABLE[error.code][family].status ?? error.status;
}

/** The status a protocol answers with for one of its own types (an error that arrives inside a stream). */
export function mapErrorTypeToStatus(type: string, family: ErrorFamily): number | undefined {
  for (const code of Object.keys(ERROR_TABLE) as GatewayErrorCode[]) {
    const answer = ERROR_TABLE[code][family];
    if (answer.type === type) return answer.status ?? DEFAULT_ERROR_STATUS[code];
  }
  return undefined;
}
