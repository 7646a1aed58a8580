import type { H3, H3Event } from 'h3';
import { invalidRequest } from '../core/gateway-error.js';
import type { Protocol } from '../core/protocol.js';
import type { Gateway } from '../gateway/create-gateway.js';
import { countInputTokens } from '../gateway/count-tokens.js';
import { readJsonBody } from './read-request-body.js';
import type { AuthenticateRequest } from './request-auth.js';
import { errorResponse, jsonResponse } from './to-http-response.js';

/** Token counting in each protocol's own shape. */
export function registerCountTokensRoutes(app: H3, gateway: Gateway, authenticate: AuthenticateRequest): void {
  app.post('/v1/messages/count_tokens', (event) =>
    count(event, gateway, authenticate, 'anthropic-messages', (tokens) => ({ input_tokens: tokens })),
  );
  app.post('/v1/responses/input_tokens', (event) =>
    count(event, gateway, authenticate, 'openai-responses', (tokens) => ({ object: 'response.input_tokens', input_tokens: tokens })),
  );
}

/** Gemini's `:countTokens` action, routed by the Gemini generation route. */
export function countGeminiTokens(event: H3Event, gateway: Gateway, authenticate: AuthenticateRequest, model: string) {
  return count(event, gateway, authenticate, 'gemini', (tokens) => ({ totalTokens: tokens }), model);
}

async function count(event: H3Event, gateway: Gateway, authenticate: AuthenticateRequest, protocol: Protocol, shape: (tokens: number) => unknown, pathModel?: string) {
  try {
    const config = gateway.config();
    authenticate(event);
    if (protocol === 'anthropic-messages' && !event.req.headers.has('anthropic-version') && !event.req.headers.has('vendorb-version')) {
      throw invalidRequest(undefined, 'anthropic-version: header is required.');
    }
    const body = await readJsonBody(event, config.server.bodyLimitBytes);
    return jsonResponse(event, shape(await countInputTokens(protocol, body.json, pathModel)));
  } catch (error) {
    return errorResponse(event, protocol, error);
  }
}
