import type { RequestLogSource } from '../log/request-log-store.js';
import { H3, HTTPResponse } from 'h3';
import { GatewayError } from '../core/gateway-error.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { GatewayLogger } from '../gateway/run-generation.js';
import type { ProtocolRegistry } from '../protocols/protocol-registry.js';
import type { RecoveryStore } from '../recoveries/recovery-store.js';
import { registerProtocolRoutes } from './protocol-routes.js';
import { registerRecoveriesRoutes } from './recoveries-routes.js';
import { keyPlacesOf } from './authenticate.js';
import { createHostCheck } from './host-check.js';
import type { InspectorObserver } from './inspector/inspector-observer.js';
import { registerInspectorRoutes } from './inspector/inspector-routes.js';
import { createRequestAuthenticator } from './request-auth.js';
import { GatewayStatus, registerStatusRoute } from './status-route.js';
import { errorResponse, jsonResponse, requestIdHeaders } from './to-http-response.js';

export interface AppOptions {
  gateway: Gateway;
  logger: GatewayLogger;
  /** The protocols served: their routes, their clients' keys, their error envelopes. */
  protocols: ProtocolRegistry;
  /** What the recoveries API serves. */
  recoveryStore: RecoveryStore;
  /** What `GET /switchyard/status` reports (its drain count comes from being an observer of the gateway). */
  status?: GatewayStatus;
  /** The requests the inspector page (`/ui`) shows; none when `inspector.keep` is 0. */
  inspector?: InspectorObserver;
  /** The request log the page's usage chart reads; none: the chart is empty. */
  requestLog?: RequestLogSource;
}

/** The h3 app: every route, a request id on every response, errors in each protocol's envelope. */
export function createApp(options: AppOptions): H3 {
  const { gateway, protocols } = options;
  const app = new H3({
    silent: true,
    onError(error, event) {
      const status = error.status ?? 500;
      if (status >= 500) options.logger.error(`${event.req.method} ${event.url.pathname}: ${error.cause instanceof Error ? error.cause.stack : error.message}`);
      const message = status === 404 ? `Unknown endpoint ${event.req.method} ${event.url.pathname}.` : status >= 500 ? 'Internal gateway error.' : error.message;
      return errorResponse(event, protocols.ofPath(event.url.pathname), new GatewayError(status === 404 ? 'not_found' : status >= 500 ? 'internal' : 'invalid_request', message, { status }));
    },
  });
  // Before every route, the generation endpoints included: see host-check.ts (DNS rebinding).
  app.use(createHostCheck(gateway, protocols));
  const endpoints = [...endpointsOf(protocols), '/v1/recoveries'];
  app.get('/', (event) => jsonResponse(event, { name: 'switchyard', endpoints }));
  app.get('/health', (event) => jsonResponse(event, { status: 'ok' }));
  registerStatusRoute(app, gateway, options.status ?? new GatewayStatus());
  // Claude Code checks that the server answers.
  app.on('HEAD', '/api/hello', (event) => new HTTPResponse(null, { status: 200, headers: requestIdHeaders(event) }));
  const authenticate = createRequestAuthenticator(gateway, protocols);
  registerProtocolRoutes(app, gateway, protocols, authenticate);
  registerRecoveriesRoutes(app, gateway, options.recoveryStore, authenticate, protocols.fallback);
  registerInspectorRoutes(app, {
    gateway,
    inspector: options.inspector,
    recoveryStore: options.recoveryStore,
    requestLog: options.requestLog,
    places: keyPlacesOf(protocols.descriptors),
    errors: protocols.fallback,
  });
  return app;
}

/** The root's list: each protocol's first generation path, then the first model list's. */
function endpointsOf(protocols: ProtocolRegistry): string[] {
  const endpoints: string[] = [];
  let models: string | undefined;
  for (const protocol of protocols.descriptors) {
    const generate = protocol.routes.find((route) => route.endpoint.kind === 'generate');
    if (generate) endpoints.push(generate.path);
    models ??= protocol.routes.find((route) => route.endpoint.kind === 'models')?.path;
  }
  return models === undefined ? endpoints : [...endpoints, models];
}
