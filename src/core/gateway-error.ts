/**
 * The one error type. Every failure (bad input, auth, routing, upstream) becomes a GatewayError,
 * and each protocol codec renders it in its own envelope (`encodeError`). `message` is safe to show
 * to a client: it never holds a stack trace or a secret. `cause` is for logs only.
 */
export type GatewayErrorCode =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'request_too_large'
  | 'unsupported_media_type'
  | 'rate_limit'
  | 'billing'
  | 'upstream_error'
  | 'overloaded'
  | 'timeout'
  | 'internal';

export interface GatewayErrorOptions {
  status?: number;
  /** The request field at fault, as the client named it (`messages[0].content`). */
  param?: string;
  /** The upstream's own error body, passed through unchanged when the protocols match. */
  upstream?: { status: number; body: string; contentType?: string };
  /** A machine-readable code from the upstream or a more precise one of ours (`model_not_found`). */
  detailCode?: string;
  /** The upstream's advice on when to try again, passed on to the client. */
  retryAfter?: RetryAfter;
  cause?: unknown;
}

/**
 * An upstream's `retry-after` (seconds or an HTTP date) and `retry-after-ms` (OpenAI's), as the
 * headers the client gets: the OpenAI and Anthropic SDKs wait that long before they retry.
 */
export type RetryAfter = Readonly<Record<string, string>>;

/** The status of each code when the error does not bring its own (an upstream's status does). */
export const DEFAULT_ERROR_STATUS: Readonly<Record<GatewayErrorCode, number>> = {
  invalid_request: 400,
  authentication: 401,
  permission: 403,
  not_found: 404,
  request_too_large: 413,
  unsupported_media_type: 415,
  rate_limit: 429,
  billing: 402,
  upstream_error: 502,
  overloaded: 503,
  timeout: 504,
  internal: 500,
};

export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  readonly code: GatewayErrorCode;
  readonly status: number;
  readonly param?: string;
  readonly upstream?: { status: number; body: string; contentType?: string };
  readonly detailCode?: string;
  /** Set after decoding, from the upstream's response headers (a body does not carry them). */
  retryAfter?: RetryAfter;

  constructor(code: GatewayErrorCode, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? DEFAULT_ERROR_STATUS[code];
    this.param = options.param;
    this.upstream = options.upstream;
    this.detailCode = options.detailCode;
    this.retryAfter = options.retryAfter;
  }

  static is(value: unknown): value is GatewayError {
    return value instanceof GatewayError || (value instanceof Error && value.name === 'GatewayError');
  }
}

/** A 400 naming the field at fault. */
export function invalidRequest(param: string | undefined, message: string): GatewayError {
  return new GatewayError('invalid_request', message, { param });
}

/** Maps an HTTP status to the neutral code (for upstream errors). */
export function mapStatusToErrorCode(status: number): GatewayErrorCode {
  if (status === 400 || status === 422) return 'invalid_request';
  if (status === 401) return 'authentication';
  if (status === 402) return 'billing';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 413) return 'request_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 429) return 'rate_limit';
  if (status === 503 || status === 529) return 'overloaded';
  if (status >= 500) return 'upstream_error';
  return 'invalid_request';
}

/** Any thrown value as a GatewayError; unknown errors become a 500 whose message hides the cause. */
export function toGatewayError(error: unknown): GatewayError {
  if (GatewayError.is(error)) return error;
  return new GatewayError('internal', 'Internal gateway error.', { cause: error });
}

/**
 * The retry headers of an upstream response, when they hold what the HTTP spec allows (a number
 * of seconds or an HTTP date; milliseconds for `retry-after-ms`): anything else is dropped rather
 * than sent on to the client.
 */
export function readRetryAfter(headers: Record<string, string | string[] | undefined>): RetryAfter | undefined {
  const seconds = firstValue(headers['retry-after']);
  const ms = firstValue(headers['retry-after-ms']);
  const validSeconds = seconds !== undefined && (/^\d{1,10}$/.test(seconds) || /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(seconds));
  const validMs = ms !== undefined && /^\d{1,12}(?:\.\d{1,6})?$/.test(ms);
  if (!validSeconds && !validMs) return undefined;
  const retryAfter: Record<string, string> = {};
  if (validSeconds) retryAfter['retry-after'] = seconds;
  if (validMs) retryAfter['retry-after-ms'] = ms;
  return retryAfter;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.trim();
}
