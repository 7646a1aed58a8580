import type { GatewayError } from '../../core/gateway-error.js';
import { ERROR_TABLE, mapErrorToStatus } from '../map-error-code.js';
import type { EncodedError } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';

/**
 * `{error: {code, message, status}}`, the envelope @google/genai parses into `ApiError`, with the
 * status and google.rpc status of ERROR_TABLE (../map-error-code.ts); a field at fault is named
 * the way Google does, in a `google.rpc.BadRequest` detail.
 */
export function encodeGeminiError(error: GatewayError): EncodedError {
  const status = mapErrorToStatus(error, 'gemini');
  const body: JsonObject = { code: status, message: error.message, status: ERROR_TABLE[error.code].gemini.type };
  if (error.param !== undefined) {
    body.details = [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: error.param, description: error.message }] }];
  }
  return { status, body: { error: body } };
}
