import type * as v from 'valibot';
import type { storeFileSchema } from './config-schema.js';
import type { StoreConfig } from './config-types.js';
import { resolveEnvReference, type Fail } from './env-reference.js';

/** The `store` section, checked by its schema, resolved. The URL is never echoed in an error: it may hold the database's password. */
export function parseStore(raw: v.InferOutput<typeof storeFileSchema> | undefined, env: Record<string, string | undefined>, fail: Fail): StoreConfig {
  if (raw === undefined || raw.type === 'files') {
    if (raw?.url !== undefined) fail('store.url', 'only a postgres store takes a url');
    if (raw?.drainLeaseSeconds !== undefined) fail('store.drainLeaseSeconds', 'only a postgres store has drain leases');
    return { type: 'files' };
  }
  if (raw.url === undefined) return fail('store.url', 'a postgres store needs a url: postgres://user:password@host:port/database, or "$DATABASE_URL"');
  const url = resolveEnvReference(raw.url, env, 'store.url', fail);
  if (!/^postgres(ql)?:\/\//.test(url)) fail('store.url', 'expected a postgres:// or postgresql:// URL');
  if (raw.drainLeaseSeconds !== undefined) return { type: 'postgres', url, drainLeaseMs: raw.drainLeaseSeconds * 1000 };
  return { type: 'postgres', url };
}
