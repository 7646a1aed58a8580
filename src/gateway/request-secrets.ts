import type { GatewayConfig } from '../config/config-types.js';
import { secretsToRedact } from '../core/redact-secrets.js';

/** Each config's own secrets, worked out once per config (a config is replaced whole when it changes). */
const configSecrets = new WeakMap<GatewayConfig, string[]>();

/**
 * The secrets no text may carry out of the gateway for one request: every configured upstream key,
 * every configured client key, and the key this client sent (in local mode any key passes, so
 * the config does not know it). Worked out only when an error needs redacting.
 */
export function requestSecrets(config: GatewayConfig, clientKey: string | undefined): string[] {
  let known = configSecrets.get(config);
  if (!known) {
    known = secretsToRedact([...config.providers.flatMap((provider): ReadonlyArray<string | undefined> => provider.apiKeys ?? [provider.apiKey]), ...config.keys.map((entry) => entry.key)]);
    configSecrets.set(config, known);
  }
  return clientKey && clientKey.length >= 8 && !known.includes(clientKey) ? secretsToRedact([...known, clientKey]) : known;
}
