import type { H3Event } from 'h3';
import type { Gateway } from '../gateway/create-gateway.js';
import { countInputTokens } from '../gateway/count-tokens.js';
import type { ProtocolDescriptor } from '../protocols/protocol-descriptor.js';
import { checkRequiredHeader } from './handle-generation.js';
import { readJsonBody } from './read-request-body.js';
import type { AuthenticateRequest } from './request-auth.js';
import { errorResponse, jsonResponse } from './to-http-response.js';

/** Token counting in the protocol's own shape. */
export async function handleCountTokens(event: H3Event, gateway: Gateway, authenticate: AuthenticateRequest, protocol: ProtocolDescriptor, pathModel: string | undefined) {
  try {
    const config = gateway.config();
    authenticate(event);
    checkRequiredHeader(event, protocol);
    const body = await readJsonBody(event, config.server.bodyLimitBytes);
    const tokens = await countInputTokens(protocol, body.json, pathModel);
    return jsonResponse(event, protocol.countTokens!.encode(tokens));
  } catch (error) {
    return errorResponse(event, protocol, error);
  }
}
