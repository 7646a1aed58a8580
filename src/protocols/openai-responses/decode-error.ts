import { GatewayError, type GatewayErrorCode } from '../../core/gateway-error.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';

/**
 * HTTP error bodies of Responses use the Chat envelope and are decoded by `decodeOpenAIError`
 * (../openai-chat/decode-error.ts). This file reads the failures Responses reports inside a 200:
 * the `error` stream event and a Response with `status: 'failed'` (docs/protocols.md §3.4).
 */

/** `response.error.code` and error-event codes → the neutral code. Unknown codes are upstream errors. */
const ERROR_CODES: Record<string, GatewayErrorCode> = {
  rate_limit_exceeded: 'rate_limit',
  insufficient_quota: 'billing',
  server_error: 'upstream_error',
  slow_down: 'overloaded',
  server_is_overloaded: 'overloaded',
  vector_store_timeout: 'timeout',
  invalid_prompt: 'invalid_request',
  invalid_request_error: 'invalid_request',
  context_length_exceeded: 'invalid_request',
};

/**
 * An `error` event: `{type:'error', code, message, param}` as documented, or with the fields nested
 * in `error` as the real server sends them (fixtures/openai-responses/error-stream.sse).
 */
export function decodeOpenAIResponsesErrorEvent(payload: JsonObject): GatewayError {
  const fields: JsonObject = isJsonObject(payload.error) ? payload.error : payload;
  const code = typeof fields.code === 'string' ? fields.code : typeof fields.type === 'string' && fields.type !== 'error' ? fields.type : undefined;
  return createStreamError(code, fields.message, fields.param);
}

/** A Response whose `status` is `failed`: its `error: {code, message}`. */
export function decodeOpenAIResponsesFailure(response: JsonObject): GatewayError {
  const error: JsonObject = isJsonObject(response.error) ? response.error : {};
  return createStreamError(typeof error.code === 'string' ? error.code : undefined, error.message, undefined);
}

function createStreamError(code: string | undefined, message: unknown, param: unknown): GatewayError {
  const text = typeof message === 'string' && message ? message : 'The upstream reported a failed response.';
  const gatewayCode = code !== undefined && Object.hasOwn(ERROR_CODES, code) ? ERROR_CODES[code] : 'upstream_error';
  return new GatewayError(gatewayCode, text, { detailCode: code || undefined, param: typeof param === 'string' ? param : undefined });
}
