import type { GatewayConfig } from '../config/config-types.js';
import { secretsToRedact } from '../core/redact-secrets.js';

/** Client keys whose secrets are kept per config: a client uses one key, a team a few dozen. */
const MAX_CLIENT_KEYS = 256;

/** Each config's own secrets, and with each client key seen, worked out once per config (a config is replaced whole when it changes). */
const configSecrets = new WeakMap<GatewayConfig, { known: string[]; withClientKey: Map<string, string[]> }>();

/**
 * The secrets no text may carry out of the gateway for one request: every configured upstream key,
 * every configured client key, and the key this client sent (in local mode any key passes, so
 * the config does not know it). The same array for every request of one key and config: the
 * inspector keeps it with each request it holds.
 */
export function requestSecrets(config: GatewayConfig, clientKey: string | undefined): readonly string[] {
  let secrets = configSecrets.get(config);
  if (!secrets) {
    const known = secretsToRedact([...config.providers.flatMap((provider): ReadonlyArray<string | undefined> => provider.apiKeys ?? [provider.apiKey]), ...config.keys.map((entry) => entry.key)]);
    secrets = { known, withClientKey: new Map() };
    configSecrets.set(config, secrets);
  }
  if (!clientKey || clientKey.length < 8 || secrets.known.includes(clientKey)) return secrets.known;
  let withKey = secrets.withClientKey.get(clientKey);
  if (!withKey) {
    // Any key passes in local mode: a client sending a new key each time must not grow this.
    if (secrets.withClientKey.size >= MAX_CLIENT_KEYS) secrets.withClientKey.clear();
    withKey = secretsToRedact([...secrets.known, clientKey]);
    secrets.withClientKey.set(clientKey, withKey);
  }
  return withKey;
}
