import { GatewayError } from './gateway-error.js';

/** What a secret becomes wherever text leaves the gateway. */
export const REDACTED = '[redacted]';

/**
 * Secrets shorter than this are not looked for: a key that short is no real key (tests and local
 * servers use placeholders such as `k` or `none`), and blanking every such word out of an error
 * would garble it.
 */
const MIN_SECRET_LENGTH = 8;

/** The secrets worth looking for, longest first (a key that contains another is blanked whole). */
export function secretsToRedact(candidates: Iterable<string | undefined>): string[] {
  const secrets = new Set<string>();
  for (const candidate of candidates) if (candidate && candidate.length >= MIN_SECRET_LENGTH) secrets.add(candidate);
  return [...secrets].sort((left, right) => right.length - left.length);
}

/** `text` with every secret in it replaced by `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets) if (redacted.includes(secret)) redacted = redacted.replaceAll(secret, REDACTED);
  return redacted;
}

/** Whether `bytes` hold any of the secrets (looked for as bytes: no string is made). */
export function holdsSecret(bytes: Uint8Array & { includes(value: string): boolean }, secrets: readonly string[]): boolean {
  for (const secret of secrets) if (bytes.includes(secret)) return true;
  return false;
}

/** The same error with every secret blanked out of its message and of the upstream's body it keeps. */
export function redactGatewayError(error: GatewayError, secrets: readonly string[]): GatewayError {
  const message = redactSecrets(error.message, secrets);
  const body = error.upstream && redactSecrets(error.upstream.body, secrets);
  if (message === error.message && body === error.upstream?.body) return error;
  return new GatewayError(error.code, message, {
    status: error.status,
    param: error.param,
    detailCode: error.detailCode,
    upstream: error.upstream && { status: error.upstream.status, body: body ?? '', contentType: error.upstream.contentType },
    cause: error.cause,
  });
}
