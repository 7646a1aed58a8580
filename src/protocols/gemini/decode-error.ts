import { GatewayError, mapStatusToErrorCode } from '../../core/gateway-error.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';

/**
 * An upstream Gemini error (`{error: {code, message, status, details}}`, docs/protocols.md §4.7) →
 * GatewayError, keeping the body for a Gemini client. Google reports a bad API key as 400 with
 * `details[].reason: 'API_KEY_INVALID'`: that is an authentication failure.
 */
export function decodeGeminiError(status: number, body: string): GatewayError {
  let message = `The upstream answered with HTTP ${status}.`;
  let detailCode: string | undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    // streamGenerateContent without alt=sse answers errors as a one-element array.
    const envelope = Array.isArray(parsed) ? parsed[0] : parsed;
    const error = isJsonObject(envelope) ? envelope.error : undefined;
    if (isJsonObject(error)) {
      if (typeof error.message === 'string' && error.message) message = error.message;
      detailCode = reasonOf(error) ?? (typeof error.status === 'string' ? error.status : undefined);
    }
  } catch {
    if (body.trim()) message = body.trim().slice(0, 500);
  }
  const code = detailCode === 'API_KEY_INVALID' ? 'authentication' : mapStatusToErrorCode(status);
  return new GatewayError(code, message, { status, detailCode, upstream: { status, body, contentType: 'application/json' } });
}

/** The `reason` of the first `google.rpc.ErrorInfo` in `details`. */
function reasonOf(error: JsonObject): string | undefined {
  if (!Array.isArray(error.details)) return undefined;
  for (const detail of error.details) {
    if (isJsonObject(detail) && typeof detail.reason === 'string') return detail.reason;
  }
  return undefined;
}
