import type { H3Event } from 'h3';
import { GatewayError } from '../core/gateway-error.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { ProtocolDescriptor } from '../protocols/protocol-descriptor.js';
import { errorResponse, jsonResponse } from './to-http-response.js';

/** The model list in the shape the asking protocol's clients read. No auth, as the spec says. */
export function handleListModels(event: H3Event, gateway: Gateway, protocol: ProtocolDescriptor) {
  return jsonResponse(event, protocol.models!.encodeList(gateway.listModels()));
}

export function handleShowModel(event: H3Event, gateway: Gateway, protocol: ProtocolDescriptor, id: string) {
  const model = gateway.listModels().find((entry) => entry.id === id);
  if (!model) {
    return errorResponse(event, protocol, new GatewayError('not_found', `The model '${id}' does not exist. List the available models with GET /v1/models.`, { detailCode: 'model_not_found' }));
  }
  return jsonResponse(event, protocol.models!.encodeModel(model));
}
