import type { GatewayError } from '../../core/gateway-error.js';
import { ERROR_TABLE, mapErrorToStatus } from '../map-error-code.js';
import type { EncodedError } from '../protocol-codec.js';

/** `{error: {message, type, param, code}}` (docs/protocols.md §1.6); shared by OpenAI Responses. */
export function encodeOpenAIError(error: GatewayError): EncodedError {
  const answer = ERROR_TABLE[error.code].openai;
  return {
    status: mapErrorToStatus(error, 'openai'),
    body: {
      error: {
        message: error.message,
        type: answer.type,
        param: error.param ?? null,
        code: error.detailCode ?? answer.code ?? null,
      },
    },
  };
}
