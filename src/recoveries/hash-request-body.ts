import { createHash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

/**
 * The lookup hash (docs/recoveries.md): RFC 8785 canonical JSON (keys sorted by UTF-16 code units, no
 * whitespace, ES number formatting), sha256, first 8 bytes as 16 lowercase hex characters.
 * Whitespace and key order do not change it; values, array order and added/missing fields do.
 */

// The package is CommonJS (`module.exports = serialize`) but its typings declare an ES default
// export, so under NodeNext TypeScript types the default import as `{ default }`. At run time the
// default import is the function itself.
const canonicalize = canonicalizeModule as unknown as (value: unknown) => string | undefined;

export const REQUEST_BODY_HASH_LENGTH = 16;

export function hashRequestBody(value: unknown): string {
  // canonicalize returns undefined for values JSON cannot express (undefined, functions, symbols).
  const canonical = canonicalize(value);
  if (canonical === undefined) throw new TypeError('hashRequestBody: the value has no JSON form');
  return createHash('sha256').update(canonical, 'utf8').digest('hex').slice(0, REQUEST_BODY_HASH_LENGTH);
}

/** Parses `text` as JSON first; throws the parser's SyntaxError when it is not JSON. */
export function hashRequestBodyText(text: string): string {
  return hashRequestBody(JSON.parse(text));
}

export function isRequestBodyHash(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{16}$/.test(value);
}
