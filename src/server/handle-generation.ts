import type { H3Event } from 'h3';
import { invalidRequest } from '../core/gateway-error.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { ProtocolDescriptor } from '../protocols/protocol-descriptor.js';
import { connectionOf } from './connection-of.js';
import { readJsonBody } from './read-request-body.js';
import type { AuthenticateRequest } from './request-auth.js';
import { errorResponse, requestIdOf, sendGenerationOutput } from './to-http-response.js';

/** A generation endpoint of any protocol: the model and streaming may come from the path (Gemini). */
export async function handleGeneration(
  event: H3Event,
  gateway: Gateway,
  authenticate: AuthenticateRequest,
  protocol: ProtocolDescriptor,
  pathModel: string | undefined,
  pathStream: boolean | undefined,
) {
  try {
    // Not awaited: a stream's promise never rejects (its errors go in the stream), and this
    // function's frame then ends instead of staying suspended for as long as the stream.
    return sendGenerationOutput(event, await generate(event, gateway, authenticate, protocol, pathModel, pathStream));
  } catch (error) {
    return errorResponse(event, protocol, error);
  }
}

/**
 * Reads, checks and starts the generation. A function of its own because a suspended async
 * function keeps every local: the parsed body must not stay alive in a frame that waits for the
 * whole stream to be sent.
 */
async function generate(
  event: H3Event,
  gateway: Gateway,
  authenticate: AuthenticateRequest,
  protocol: ProtocolDescriptor,
  pathModel: string | undefined,
  pathStream: boolean | undefined,
) {
  const config = gateway.config();
  const { user, key } = authenticate(event);
  checkRequiredHeader(event, protocol);
  const body = await readJsonBody(event, config.server.bodyLimitBytes);
  const policy = event.req.headers.get('x-switchyard-on-disconnect');
  if (policy !== null && policy !== 'drain' && policy !== 'cancel') {
    throw invalidRequest(undefined, `x-switchyard-on-disconnect: expected 'drain' or 'cancel', got '${policy}'.`);
  }
  const resume = event.req.headers.get('x-switchyard-resume');
  if (resume !== null && resume !== 'off' && resume !== 'on') {
    throw invalidRequest(undefined, `x-switchyard-resume: expected 'off' or 'on', got '${resume}'.`);
  }
  return gateway.generate({
    inbound: protocol.id,
    endpoint: event.url.pathname,
    body: body.json,
    bodyBytes: body.bytes,
    search: event.url.search,
    pathModel,
    pathStream,
    clientHeader: (name) => event.req.headers.get(name) ?? undefined,
    user,
    clientKey: key,
    requestId: requestIdOf(event),
    client: connectionOf(event),
    ...(policy !== null && { disconnectPolicy: policy }),
    ...(resume === 'off' && { resume: false }),
  });
}

/** A header the protocol's clients must send (Anthropic's `anthropic-version`), or its 400. */
export function checkRequiredHeader(event: H3Event, protocol: ProtocolDescriptor): void {
  const required = protocol.requiredHeader;
  if (required === undefined) return;
  for (const name of required.names) if (event.req.headers.has(name)) return;
  throw invalidRequest(undefined, required.message);
}
