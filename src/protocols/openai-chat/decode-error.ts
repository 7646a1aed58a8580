import { GatewayError, mapStatusToErrorCode } from '../../core/gateway-error.js';
import { isJsonObject } from '../read-fields.js';

/** An upstream's OpenAI-style error (also `{error: "text"}` from compatible servers) → GatewayError. */
export function decodeOpenAIError(status: number, body: string): GatewayError {
  let message = `The upstream answered with HTTP ${status}.`;
  let detailCode: string | undefined;
  let param: string | undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (isJsonObject(parsed)) {
      const error = parsed.error;
      if (isJsonObject(error)) {
        if (typeof error.message === 'string' && error.message) message = error.message;
        if (typeof error.code === 'string') detailCode = error.code;
        if (typeof error.param === 'string') param = error.param;
      } else if (typeof error === 'string') {
        message = error;
      } else if (typeof parsed.message === 'string') {
        message = parsed.message;
      }
    }
  } catch {
    if (body.trim()) message = body.trim().slice(0, 500);
  }
  return new GatewayError(mapStatusToErrorCode(status), message, {
    status,
    param,
    detailCode,
    upstream: { status, body, contentType: 'application/json' },
  });
}
