import { HTTPResponse } from 'h3';
import { toGatewayError } from '../core/gateway-error.js';
import type { Protocol } from '../core/protocol.js';
import type { GenerationOutput } from '../gateway/run-generation.js';
import { renderError } from '../gateway/render-error.js';
import { getCodec } from '../protocols/codecs.js';

/** A gateway answer as an h3 response; a stream body is a Node stream, piped without copying. */
export function toHTTPResponse(output: GenerationOutput): HTTPResponse {
  // h3 pipes any body with .pipe(); its BodyInit type does not name Node streams.
  return new HTTPResponse(output.body as unknown as ConstructorParameters<typeof HTTPResponse>[0], { status: output.status, headers: output.headers });
}

/** Any error, in the envelope of the protocol the client speaks. Internal details stay in the log. */
export function errorResponse(protocol: Protocol, error: unknown): HTTPResponse {
  const rendered = renderError(getCodec(protocol), toGatewayError(error));
  return new HTTPResponse(rendered.body, { status: rendered.status, headers: rendered.headers });
}

export function jsonResponse(body: unknown, status = 200): HTTPResponse {
  return new HTTPResponse(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
