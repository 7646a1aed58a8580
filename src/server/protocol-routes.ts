import type { H3, H3Event } from 'h3';
import { GatewayError } from '../core/gateway-error.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { ProtocolDescriptor, ProtocolRoute } from '../protocols/protocol-descriptor.js';
import type { ProtocolRegistry } from '../protocols/protocol-registry.js';
import { handleCountTokens } from './handle-count-tokens.js';
import { handleGeneration } from './handle-generation.js';
import { handleListModels, handleShowModel } from './handle-models.js';
import type { AuthenticateRequest } from './request-auth.js';
import { errorResponse } from './to-http-response.js';

/** One protocol's route, with its path split around `{model}`. */
interface RouteEntry {
  protocol: ProtocolDescriptor;
  route: ProtocolRoute;
  /** What follows `{model}` in the path (`:generateContent`); '' without one. */
  suffix: string;
}

type Handle = (event: H3Event, entry: RouteEntry, model: string | undefined) => unknown;

/**
 * Every route of every protocol in the registry. Routes on the same method and path (`GET
 * /v1/models`, Gemini's `/v1beta/models/{model}:…` actions) share one h3 handler, which picks the
 * route by the path's end and, among protocols, by their clients' marker headers. A path served
 * by one route alone gets that route's handler itself: nothing is looked up per request.
 */
export function registerProtocolRoutes(app: H3, gateway: Gateway, protocols: ProtocolRegistry, authenticate: AuthenticateRequest): void {
  const groups = new Map<string, { method: ProtocolRoute['method']; path: string; prefix: string | undefined; entries: RouteEntry[] }>();
  for (const protocol of protocols.descriptors) {
    for (const route of protocol.routes) {
      checkRoute(protocol, route);
      const open = route.path.indexOf('{model}');
      const prefix = open === -1 ? undefined : route.path.slice(0, open);
      const path = prefix === undefined ? route.path : `${prefix}**`;
      const key = `${route.method} ${path}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { method: route.method, path, prefix, entries: [] }));
      group.entries.push({ protocol, route, suffix: open === -1 ? '' : route.path.slice(open + '{model}'.length) });
    }
  }

  const handle: Handle = (event, entry, model) => {
    const { protocol, route } = entry;
    const name = model !== undefined && route.modelPrefix !== undefined && model.startsWith(route.modelPrefix) ? model.slice(route.modelPrefix.length) : model;
    switch (route.endpoint.kind) {
      case 'generate':
        return handleGeneration(event, gateway, authenticate, protocol, name, route.stream);
      case 'count-tokens':
        return handleCountTokens(event, gateway, authenticate, protocol, name);
      case 'models':
        return handleListModels(event, gateway, protocol);
      case 'model':
        return handleShowModel(event, gateway, protocol, name ?? '');
      case 'refuse':
        return errorResponse(event, protocol, new GatewayError('invalid_request', route.endpoint.message, { status: route.endpoint.status }));
      default: {
        const unexpected: never = route.endpoint;
        throw new Error(`Unhandled endpoint ${JSON.stringify(unexpected)}`);
      }
    }
  };

  for (const { method, path, prefix, entries } of groups.values()) {
    const register = method === 'GET' ? app.get.bind(app) : app.post.bind(app);
    if (prefix === undefined && entries.length === 1) {
      const [entry] = entries;
      register(path, (event) => handle(event, entry, undefined));
      continue;
    }
    register(path, (event) => {
      const model = prefix === undefined ? undefined : decodeURIComponent(event.url.pathname.slice(prefix.length));
      const entry = chooseEntry(event, entries, model);
      if (entry === undefined) {
        return errorResponse(event, entries[0].protocol, new GatewayError('not_found', `Unknown endpoint ${event.req.method} ${event.url.pathname}.`));
      }
      return handle(event, entry, model === undefined ? undefined : model.slice(0, model.length - entry.suffix.length));
    });
  }
}

/**
 * The route a request takes among those of one path: the first whose path end matches and whose
 * protocol's marker header the request carries, else the first matching one of a protocol without
 * markers, else the first matching one.
 */
function chooseEntry(event: H3Event, entries: readonly RouteEntry[], rest: string | undefined): RouteEntry | undefined {
  let unmarked: RouteEntry | undefined;
  let first: RouteEntry | undefined;
  for (const entry of entries) {
    if (rest !== undefined && !rest.endsWith(entry.suffix)) continue;
    first ??= entry;
    const markers = entry.protocol.clientMarkers;
    if (markers === undefined) {
      unmarked ??= entry;
      continue;
    }
    for (const name of markers) if (event.req.headers.has(name)) return entry;
  }
  return unmarked ?? first;
}

/** A descriptor's mistakes show when the server starts, not on the first request. */
function checkRoute(protocol: ProtocolDescriptor, route: ProtocolRoute): void {
  const where = `Protocol '${protocol.id}', route ${route.method} ${route.path}`;
  const open = route.path.indexOf('{model}');
  if (open !== -1 && (route.path[open - 1] !== '/' || route.path.indexOf('{', open + 1) !== -1)) throw new Error(`${where}: {model} must start a segment, once.`);
  if ((route.endpoint.kind === 'models' || route.endpoint.kind === 'model') && protocol.models === undefined) throw new Error(`${where}: the protocol encodes no model lists.`);
  if (route.endpoint.kind === 'model' && open === -1) throw new Error(`${where}: a model route names {model}.`);
  if (route.endpoint.kind === 'count-tokens' && protocol.countTokens === undefined) throw new Error(`${where}: the protocol encodes no token counts.`);
}
