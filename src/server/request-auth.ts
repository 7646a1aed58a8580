import type { H3Event } from 'h3';
import type { GatewayConfig } from '../config/config-types.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { ProtocolRegistry } from '../protocols/protocol-registry.js';
import { createAuthenticator, extractApiKey, keyPlacesOf, type Authenticator } from './authenticate.js';

/** The user of a request's key, under the config in force (one authenticator per config). */
export type AuthenticateRequest = (event: H3Event) => { user: string; key: string };

export function createRequestAuthenticator(gateway: Gateway, protocols: ProtocolRegistry): AuthenticateRequest {
  const authenticators = new WeakMap<GatewayConfig, Authenticator>();
  const places = keyPlacesOf(protocols.descriptors);
  return (event) => {
    const config = gateway.config();
    let authenticator = authenticators.get(config);
    if (!authenticator) {
      authenticator = createAuthenticator(config.keys, places.hint);
      authenticators.set(config, authenticator);
    }
    const key = extractApiKey((name) => event.req.headers.get(name), () => event.url.searchParams, places);
    return { key: key!, user: authenticator.authenticate(key).user };
  };
}
