import type { ServerResponse } from 'node:http';
import { finished } from 'node:stream/promises';
import { HTTPResponse, type H3Event } from 'h3';
import { toGatewayError } from '../core/gateway-error.js';
import type { Protocol } from '../core/protocol.js';
import type { GenerationOutput } from '../gateway/run-generation.js';
import { renderError } from '../gateway/render-error.js';
import { getCodec } from '../protocols/codecs.js';

/** h3's marker for a response written to the Node response directly (as its Node handlers do). */
const HANDLED = Symbol.for('h3.handled');

/**
 * A gateway answer to the client. On Node a stream is piped straight into the response, with the
 * headers sent as soon as the upstream has answered: through h3's generic path, headers would wait
 * for the first chunk and every stream would set up a `pipeline` of its own.
 */
export async function sendGenerationOutput(event: H3Event, output: GenerationOutput): Promise<HTTPResponse | symbol> {
  const response = (event.runtime as { node?: { res?: ServerResponse } } | undefined)?.node?.res;
  if (output.kind !== 'stream' || !response) return toHTTPResponse(output);
  response.writeHead(output.status, { ...Object.fromEntries(event.res.headers), ...output.headers });
  // Clients learn at once that the request was taken, however long the first token takes.
  response.flushHeaders();
  output.body.pipe(response);
  await finished(response).catch(() => undefined);
  return HANDLED;
}

/** A gateway answer as an h3 response; a stream body is a Node stream, which h3 pipes. */
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
