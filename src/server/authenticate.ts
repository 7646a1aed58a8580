import { createHash, timingSafeEqual } from 'node:crypto';
import type { KeyConfig } from '../config/config-types.js';
import { GatewayError } from '../core/gateway-error.js';

/** Where clients put their key: Bearer (OpenAI, recoveries), x-api-key (Anthropic), x-goog-api-key or ?key= (Gemini). */
export function extractApiKey(header: (name: string) => string | null | undefined, query: URLSearchParams): string | undefined {
  const authorization = header('authorization');
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match) return match[1].trim();
  }
  return header('x-api-key') ?? header('x-goog-api-key') ?? header('x-vendorc-api-key') ?? query.get('key') ?? undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The user a key belongs to. With keys configured, only those pass (compared in constant time over
 * their digests, so neither content nor length leaks); with none (local mode), any non-empty key
 * passes and is its own user, named by a digest so the key itself is never stored.
 */
export function authenticate(key: string | undefined, keys: readonly KeyConfig[]): { user: string } {
  if (!key) {
    throw new GatewayError('authentication', 'Missing API key. Send it as "Authorization: Bearer <key>" (or x-api-key / x-goog-api-key).');
  }
  if (keys.length === 0) return { user: `local-${digest(key).toString('hex').slice(0, 12)}` };
  const presented = digest(key);
  let user: string | undefined;
  for (const entry of keys) {
    // No early exit: every configured key is compared.
    if (timingSafeEqual(presented, digest(entry.key)) && user === undefined) user = entry.user;
  }
  if (user === undefined) throw new GatewayError('authentication', 'Invalid API key.');
  return { user };
}
