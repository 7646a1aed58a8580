import type { GatewayError } from '../core/gateway-error.js';
import type { ProtocolCodec } from '../protocols/protocol-codec.js';

export interface RenderedError {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/**
 * A GatewayError in the client's protocol. An upstream error of the client's own protocol is
 * returned as the upstream sent it (status and body), which is what passthrough means. Either way
 * the upstream's `retry-after` goes with it, for the client's SDK to wait before it retries.
 */
export function renderError(codec: ProtocolCodec, error: GatewayError, upstreamProtocol?: string): RenderedError {
  if (error.upstream && upstreamProtocol === codec.protocol && error.upstream.status >= 400) {
    return {
      status: error.upstream.status,
      body: error.upstream.body,
      headers: Object.assign({ 'content-type': error.upstream.contentType ?? 'application/json' }, error.retryAfter),
    };
  }
  const encoded = codec.encodeError(error);
  return {
    status: encoded.status,
    body: JSON.stringify(encoded.body),
    headers: Object.assign({ 'content-type': 'application/json' }, encoded.headers, error.retryAfter),
  };
}
