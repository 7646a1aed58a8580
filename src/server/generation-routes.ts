import type { H3, H3Event } from 'h3';
import { GatewayError, invalidRequest } from '../core/gateway-error.js';
import type { Protocol } from '../core/protocol.js';
import type { Gateway } from '../gateway/create-gateway.js';
import { countGeminiTokens } from './count-tokens-routes.js';
import { readJsonBody } from './read-request-body.js';
import type { AuthenticateRequest } from './request-auth.js';
import { connectionOf } from './connection-of.js';
import { errorResponse, requestIdOf, sendGenerationOutput } from './to-http-response.js';

/** The generation endpoints of the four protocols. */
export function registerGenerationRoutes(app: H3, gateway: Gateway, authenticate: AuthenticateRequest): void {
  app.post('/v1/chat/completions', (event) => handleGeneration(event, gateway, authenticate, 'openai-chat'));
  app.post('/v1/responses', (event) => handleGeneration(event, gateway, authenticate, 'openai-responses'));
  app.post('/v1/messages', (event) => handleGeneration(event, gateway, authenticate, 'anthropic-messages'));
  // Codex CLI may try a WebSocket first; 426 makes it fall back to HTTP at once (400 would be fatal).
  app.get('/v1/responses', (event) =>
    errorResponse(event, 'openai-responses', new GatewayError('invalid_request', 'WebSocket is not supported on /v1/responses; use HTTP POST.', { status: 426 })),
  );
  // Gemini: /v1beta/models/{model}:{action}, and the same under /v1/ (@google/genai 3.x).
  for (const prefix of ['/v1beta/models/', '/v1/models/']) {
    app.post(`${prefix}**`, (event) => {
      const rest = decodeURIComponent(event.url.pathname.slice(prefix.length));
      const colon = rest.lastIndexOf(':');
      const model = (colon === -1 ? rest : rest.slice(0, colon)).replace(/^models\//, '');
      const action = colon === -1 ? '' : rest.slice(colon + 1);
      if (action === 'generateContent') return handleGeneration(event, gateway, authenticate, 'gemini', { pathModel: model, pathStream: false });
      if (action === 'streamGenerateContent') return handleGeneration(event, gateway, authenticate, 'gemini', { pathModel: model, pathStream: true });
      if (action === 'countTokens') return countGeminiTokens(event, gateway, authenticate, model);
      return errorResponse(event, 'gemini', new GatewayError('not_found', `Unknown method '${action}' on models/${model}.`));
    });
  }
}

async function handleGeneration(event: H3Event, gateway: Gateway, authenticate: AuthenticateRequest, protocol: Protocol, path: { pathModel?: string; pathStream?: boolean } = {}) {
  try {
    // Not awaited: a stream's promise never rejects (its errors go in the stream), and this
    // function's frame then ends instead of staying suspended for as long as the stream.
    return sendGenerationOutput(event, await generate(event, gateway, authenticate, protocol, path));
  } catch (error) {
    return errorResponse(event, protocol, error);
  }
}

/**
 * Reads, checks and starts the generation. A function of its own because a suspended async
 * function keeps every local: the parsed body must not stay alive in a frame that waits for the
 * whole stream to be sent.
 */
async function generate(event: H3Event, gateway: Gateway, authenticate: AuthenticateRequest, protocol: Protocol, path: { pathModel?: string; pathStream?: boolean }) {
  const config = gateway.config();
  const { user, key } = authenticate(event);
  if (protocol === 'anthropic-messages' && !event.req.headers.has('anthropic-version') && !event.req.headers.has('vendorb-version')) {
    throw invalidRequest(undefined, 'anthropic-version: header is required.');
  }
  const body = await readJsonBody(event, config.server.bodyLimitBytes);
  const policy = event.req.headers.get('x-switchyard-on-disconnect');
  if (policy !== null && policy !== 'drain' && policy !== 'cancel') {
    throw invalidRequest(undefined, `x-switchyard-on-disconnect: expected 'drain' or 'cancel', got '${policy}'.`);
  }
  return gateway.generate({
    inbound: protocol,
    body: body.json,
    bodyBytes: body.bytes,
    search: event.url.search,
    ...path,
    clientHeader: (name) => event.req.headers.get(name) ?? undefined,
    user,
    clientKey: key,
    requestId: requestIdOf(event),
    client: connectionOf(event),
    ...(policy !== null && { disconnectPolicy: policy }),
  });
}
