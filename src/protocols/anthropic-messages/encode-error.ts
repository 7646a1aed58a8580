import type { GatewayError } from '../../core/gateway-error.js';
import { ERROR_TABLE, mapErrorToStatus, mapErrorTypeToStatus } from '../map-error-code.js';
import type { EncodedError } from '../protocol-codec.js';

/** The `error.type` of a GatewayError for an Anthropic client (ERROR_TABLE in ../map-error-code.ts). */
export function anthropicErrorType(error: GatewayError): string {
  return ERROR_TABLE[error.code].anthropic.type;
}

/** `{type: 'error', error: {type, message}, request_id}`; the SDK shows the whole body as its message. */
export function encodeAnthropicMessagesError(error: GatewayError): EncodedError {
  return {
    status: mapErrorToStatus(error, 'anthropic'),
    body: { type: 'error', error: { type: anthropicErrorType(error), message: error.message }, request_id: null },
  };
}

/** The status Anthropic answers with for an `error.type` (for errors that arrive inside a stream). */
export function mapAnthropicErrorTypeToStatus(type: string): number {
  return mapErrorTypeToStatus(type, 'anthropic') ?? 500;
}
