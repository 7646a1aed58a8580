import type { H3Event } from 'h3';
import { toGatewayError } from '../core/gateway-error.js';
import type { Gateway } from '../gateway/create-gateway.js';
import { countInputTokens } from '../gateway/count-tokens.js';
import type { ProtocolDescriptor } from '../protocols/protocol-descriptor.js';
import { checkRequiredHeader } from './handle-generation.js';
import { readJsonBody } from './read-request-body.js';
import type { AuthenticateRequest } from './request-auth.js';
import { errorResponse, jsonResponse, requestIdOf } from './to-http-response.js';

/** Token counting in the protocol's own shape; the observers (the request log) learn how it went. */
export async function handleCountTokens(event: H3Event, gateway: Gateway, authenticate: AuthenticateRequest, protocol: ProtocolDescriptor, pathModel: string | undefined) {
  const startedAt = Date.now();
  let user = '';
  let model = pathModel ?? '';
  try {
    const config = gateway.config();
    user = authenticate(event).user;
    checkRequiredHeader(event, protocol);
    const body = await readJsonBody(event, config.server.bodyLimitBytes);
    if (pathModel === undefined && typeof body.json.model === 'string') model = body.json.model;
    const tokens = await countInputTokens(protocol, body.json, pathModel);
    tell(event, gateway, protocol, { startedAt, user, model, status: 200, inputTokens: tokens });
    return jsonResponse(event, protocol.countTokens!.encode(tokens));
  } catch (error) {
    // A request refused for its key has no user: it is not logged as anyone's.
    if (user !== '') tell(event, gateway, protocol, { startedAt, user, model, status: toGatewayError(error).status, inputTokens: undefined });
    return errorResponse(event, protocol, error);
  }
}

function tell(event: H3Event, gateway: Gateway, protocol: ProtocolDescriptor, counted: { startedAt: number; user: string; model: string; status: number; inputTokens: number | undefined }): void {
  gateway.counted({
    requestId: requestIdOf(event),
    user: counted.user,
    protocol: protocol.id,
    endpoint: event.url.pathname,
    model: counted.model,
    startedAt: counted.startedAt,
    durationMs: Date.now() - counted.startedAt,
    status: counted.status,
    inputTokens: counted.inputTokens,
    userAgent: event.req.headers.get('user-agent') ?? undefined,
  });
}
