import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { HTTPResponse, type H3Event } from 'h3';
import { toGatewayError } from '../core/gateway-error.js';
import type { GenerationOutput } from '../gateway/run-generation.js';
import { renderError } from '../gateway/render-error.js';
import type { ProtocolDescriptor } from '../protocols/protocol-descriptor.js';
import { streamBodyReadable } from './stream-body-readable.js';

/**
 * Every response carries the request's id, under both names (OpenAI's SDK reads x-request-id,
 * Anthropic's request-id), followed by `headers`. Set here, in the plain header object each
 * response is built from: h3's prepared headers would be merged into every response, which
 * measured ~8 % of a request.
 */
export function requestIdHeaders(event: H3Event, ...headers: Record<string, string>[]): Record<string, string> {
  const requestId = requestIdOf(event);
  return Object.assign({ 'x-request-id': requestId, 'request-id': requestId }, ...headers);
}

/** The request's id, made on first use (a generation's recovery record is filed under it). */
export function requestIdOf(event: H3Event): string {
  return (event.context.requestId as string | undefined) ?? (event.context.requestId = randomUUID());
}

/** h3's marker for a response written to the Node response directly (as its Node handlers do). */
const HANDLED = Symbol.for('h3.handled');

/**
 * A gateway answer to the client, written straight into the Node response (h3's own path would
 * build a web `Headers` object and a response object for each). A stream's status and headers go
 * out with its first event (see client-stream.ts); a JSON answer's with its body, in one write.
 */
export function sendGenerationOutput(event: H3Event, output: GenerationOutput): HTTPResponse | symbol | Promise<symbol> {
  const response = (event.runtime as { node?: { res?: ServerResponse } } | undefined)?.node?.res;
  if (!response) return toHTTPResponse(event, output);
  // srvx ends the response once the handler returns. Ending it here would make srvx's own
  // `end(callback)` build an ERR_STREAM_ALREADY_FINISHED error, stack trace and all, each time.
  if (output.kind === 'json') {
    response.writeHead(output.status, requestIdHeaders(event, output.headers, { 'content-length': String(Buffer.byteLength(output.body)) }));
    response.write(output.body);
    return HANDLED;
  }
  response.writeHead(output.status, requestIdHeaders(event, output.headers));
  // A promise chained, not an async function waiting: nothing of this call stays suspended for
  // as long as the stream (the stream ends for the client without ever rejecting `pipeTo`).
  return output.body.pipeTo(response).then(handled);
}

const handled = (): symbol => HANDLED;

/** A gateway answer as an h3 response; a stream body becomes a Node Readable, which h3 pipes. */
export function toHTTPResponse(event: H3Event, output: GenerationOutput): HTTPResponse {
  const body = output.kind === 'stream' ? streamBodyReadable(output.body) : output.body;
  // h3 pipes any body with .pipe(); its BodyInit type does not name Node streams.
  return new HTTPResponse(body as unknown as ConstructorParameters<typeof HTTPResponse>[0], {
    status: output.status,
    headers: requestIdHeaders(event, output.headers),
  });
}

/** Any error, in the envelope of the protocol the client speaks. Internal details stay in the log. */
export function errorResponse(event: H3Event, protocol: ProtocolDescriptor, error: unknown): HTTPResponse {
  const rendered = renderError(protocol.codec, toGatewayError(error));
  return new HTTPResponse(rendered.body, { status: rendered.status, headers: requestIdHeaders(event, rendered.headers) });
}

export function jsonResponse(event: H3Event, body: unknown, status = 200): HTTPResponse {
  return new HTTPResponse(JSON.stringify(body), { status, headers: requestIdHeaders(event, { 'content-type': 'application/json' }) });
}
