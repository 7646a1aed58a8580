import { GatewayError, mapStatusToErrorCode } from '../../core/gateway-error.js';
import { isJsonObject } from '../read-fields.js';

/**
 * An upstream's Anthropic error body (`{type: 'error', error: {type, message}, request_id}`) →
 * GatewayError. `error.type` becomes the detail code; the body is kept for passthrough.
 */
export function decodeAnthropicMessagesError(status: number, body: string): GatewayError {
  let message = `The upstream answered with HTTP ${status}.`;
  let detailCode: string | undefined;
  let contentType = 'application/json';
  try {
    const parsed: unknown = JSON.parse(body);
    if (isJsonObject(parsed) && isJsonObject(parsed.error)) {
      if (typeof parsed.error.message === 'string' && parsed.error.message) message = parsed.error.message;
      if (typeof parsed.error.type === 'string') detailCode = parsed.error.type;
    } else if (isJsonObject(parsed) && typeof parsed.message === 'string') {
      message = parsed.message;
    }
  } catch {
    // Proxies in front of the API (Cloudflare's 413) answer with HTML or plain text.
    if (body.trim()) message = body.trim().slice(0, 500);
    contentType = 'text/plain';
  }
  return new GatewayError(mapStatusToErrorCode(status), message, {
    status,
    detailCode,
    upstream: { status, body, contentType },
  });
}
