import { H3, HTTPResponse } from 'h3';
import { GatewayError } from '../core/gateway-error.js';
import type { Protocol } from '../core/protocol.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { GatewayLogger } from '../gateway/run-generation.js';
import { registerCountTokensRoutes } from './count-tokens-routes.js';
import { registerGenerationRoutes } from './generation-routes.js';
import { registerModelsRoutes } from './models-routes.js';
import { createRequestAuthenticator, type AuthenticateRequest } from './request-auth.js';
import { errorResponse, jsonResponse, requestIdHeaders } from './to-http-response.js';

export interface AppOptions {
  gateway: Gateway;
  logger: GatewayLogger;
  /** Extra routes (recoveries) registered by the caller. */
  register?: (app: H3, authenticate: AuthenticateRequest) => void;
}

/** The h3 app: every route, a request id on every response, errors in each protocol's envelope. */
export function createApp(options: AppOptions): H3 {
  const app = new H3({
    silent: true,
    onError(error, event) {
      const status = error.status ?? 500;
      if (status >= 500) options.logger.error(`${event.req.method} ${event.url.pathname}: ${error.cause instanceof Error ? error.cause.stack : error.message}`);
      const message = status === 404 ? `Unknown endpoint ${event.req.method} ${event.url.pathname}.` : status >= 500 ? 'Internal gateway error.' : error.message;
      return errorResponse(event, protocolOfPath(event.url.pathname), new GatewayError(status === 404 ? 'not_found' : status >= 500 ? 'internal' : 'invalid_request', message, { status }));
    },
  });
  app.get('/', (event) => jsonResponse(event, { name: 'switchyard', endpoints: ['/v1/chat/completions', '/v1/messages', '/v1/responses', '/v1beta/models/{model}:generateContent', '/v1/models', '/v1/recoveries'] }));
  app.get('/health', (event) => jsonResponse(event, { status: 'ok' }));
  // Claude Code checks that the server answers.
  app.on('HEAD', '/api/hello', (event) => new HTTPResponse(null, { status: 200, headers: requestIdHeaders(event) }));
  registerModelsRoutes(app, options.gateway);
  const authenticate = createRequestAuthenticator(options.gateway);
  registerCountTokensRoutes(app, options.gateway, authenticate);
  registerGenerationRoutes(app, options.gateway, authenticate);
  options.register?.(app, authenticate);
  return app;
}

function protocolOfPath(pathname: string): Protocol {
  if (pathname.startsWith('/v1beta/')) return 'gemini';
  if (pathname.startsWith('/v1/messages')) return 'anthropic-messages';
  if (pathname.startsWith('/v1/responses')) return 'openai-responses';
  return 'openai-chat';
}
