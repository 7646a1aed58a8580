import { createHash, timingSafeEqual } from 'node:crypto';
import type { KeyConfig } from '../config/config-types.js';
import { GatewayError } from '../core/gateway-error.js';
import type { ProtocolDescriptor } from '../protocols/protocol-descriptor.js';

/** Where the protocols' clients put their key, besides `Authorization: Bearer` (OpenAI's, and the recoveries API's). */
export interface KeyPlaces {
  headers: readonly string[];
  query: readonly string[];
  /** How a client is told where to send its key. */
  hint: string;
}

export function keyPlacesOf(protocols: readonly ProtocolDescriptor[]): KeyPlaces {
  const headers = new Set<string>();
  const query = new Set<string>();
  const named: string[] = [];
  for (const protocol of protocols) {
    const place = protocol.clientKey;
    if (place?.headers?.length) named.push(place.headers[0]);
    for (const name of place?.headers ?? []) headers.add(name);
    if (place?.query !== undefined) query.add(place.query);
  }
  const hint = `Missing API key. Send it as "Authorization: Bearer <key>"${named.length > 0 ? ` (or ${named.join(' / ')})` : ''}.`;
  return { headers: [...headers], query: [...query], hint };
}

/** The key of a request: any route reads every protocol's place, as clients are not always sure of theirs. */
export function extractApiKey(header: (name: string) => string | null | undefined, query: () => URLSearchParams, places: KeyPlaces): string | undefined {
  const authorization = header('authorization');
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match) return match[1].trim();
  }
  for (const name of places.headers) {
    const value = header(name);
    if (value != null) return value;
  }
  // The query is parsed only when no header carried a key (REST clients of Gemini).
  if (places.query.length === 0) return undefined;
  const parameters = query();
  for (const name of places.query) {
    const value = parameters.get(name);
    if (value !== null) return value;
  }
  return undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** How many local-mode users' ids are remembered, so each request does not hash its key again. */
const LOCAL_USER_CACHE_SIZE = 1024;

export interface Authenticator {
  /** The user a key belongs to (`admin`: a configured key marked so); a 401 GatewayError for a missing or unknown key. */
  authenticate(key: string | undefined): { user: string; admin: boolean };
}

/**
 * With keys configured, only those pass, compared in constant time over their digests (computed
 * once here), so neither content nor length leaks; with none (local mode), any non-empty key
 * passes and is its own user, named by a digest so the key itself is never stored.
 */
export function createAuthenticator(keys: readonly KeyConfig[], missingKeyMessage: string): Authenticator {
  const configured = keys.map((entry) => ({ digest: digest(entry.key), user: entry.user, admin: entry.admin }));
  const localUsers = new Map<string, string>();
  return {
    authenticate(key) {
      if (!key) {
        throw new GatewayError('authentication', missingKeyMessage);
      }
      if (configured.length === 0) {
        let user = localUsers.get(key);
        if (user === undefined) {
          if (localUsers.size >= LOCAL_USER_CACHE_SIZE) localUsers.clear();
          user = `local-${digest(key).toString('hex').slice(0, 12)}`;
          localUsers.set(key, user);
        }
        return { user, admin: false };
      }
      const presented = digest(key);
      let user: string | undefined;
      let admin = false;
      for (const entry of configured) {
        // No early exit: every configured key is compared.
        if (timingSafeEqual(presented, entry.digest) && user === undefined) {
          user = entry.user;
          admin = entry.admin;
        }
      }
      if (user === undefined) throw new GatewayError('authentication', 'Invalid API key.');
      return { user, admin };
    },
  };
}
