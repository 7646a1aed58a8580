import { createHash, timingSafeEqual } from 'node:crypto';
import type { KeyConfig } from '../config/config-types.js';
import { GatewayError } from '../core/gateway-error.js';

/** Where clients put their key: Bearer (OpenAI, recoveries), x-api-key (Anthropic), x-goog-api-key or ?key= (Gemini). */
export function extractApiKey(header: (name: string) => string | null | undefined, query: () => URLSearchParams): string | undefined {
  const authorization = header('authorization');
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match) return match[1].trim();
  }
  // The query is parsed only when no header carried a key (REST clients of Gemini).
  return header('x-api-key') ?? header('x-goog-api-key') ?? header('x-vendorc-api-key') ?? query().get('key') ?? undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** How many local-mode users' ids are remembered, so each request does not hash its key again. */
const LOCAL_USER_CACHE_SIZE = 1024;

export interface Authenticator {
  /** The user a key belongs to; a 401 GatewayError for a missing or unknown key. */
  authenticate(key: string | undefined): { user: string };
}

/**
 * With keys configured, only those pass, compared in constant time over their digests (computed
 * once here), so neither content nor length leaks; with none (local mode), any non-empty key
 * passes and is its own user, named by a digest so the key itself is never stored.
 */
export function createAuthenticator(keys: readonly KeyConfig[]): Authenticator {
  const configured = keys.map((entry) => ({ digest: digest(entry.key), user: entry.user }));
  const localUsers = new Map<string, string>();
  return {
    authenticate(key) {
      if (!key) {
        throw new GatewayError('authentication', 'Missing API key. Send it as "Authorization: Bearer <key>" (or x-api-key / x-goog-api-key).');
      }
      if (configured.length === 0) {
        let user = localUsers.get(key);
        if (user === undefined) {
          if (localUsers.size >= LOCAL_USER_CACHE_SIZE) localUsers.clear();
          user = `local-${digest(key).toString('hex').slice(0, 12)}`;
          localUsers.set(key, user);
        }
        return { user };
      }
      const presented = digest(key);
      let user: string | undefined;
      for (const entry of configured) {
        // No early exit: every configured key is compared.
        if (timingSafeEqual(presented, entry.digest) && user === undefined) user = entry.user;
      }
      if (user === undefined) throw new GatewayError('authentication', 'Invalid API key.');
      return { user };
    },
  };
}
