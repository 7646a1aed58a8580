import type { H3Event } from 'h3';
import type { GatewayConfig } from '../config/config-types.js';
import type { Gateway } from '../gateway/create-gateway.js';
import { createAuthenticator, extractApiKey, type Authenticator } from './authenticate.js';

/** The user of a request's key, under the config in force (one authenticator per config). */
export type AuthenticateRequest = (event: H3Event) => { user: string; key: string };

export function createRequestAuthenticator(gateway: Gateway): AuthenticateRequest {
  const authenticators = new WeakMap<GatewayConfig, Authenticator>();
  return (event) => {
    const config = gateway.config();
    let authenticator = authenticators.get(config);
    if (!authenticator) {
      authenticator = createAuthenticator(config.keys);
      authenticators.set(config, authenticator);
    }
    const key = extractApiKey((name) => event.req.headers.get(name), () => event.url.searchParams);
    return { key: key!, user: authenticator.authenticate(key).user };
  };
}
