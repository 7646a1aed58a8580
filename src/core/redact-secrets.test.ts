import { describe, expect, it } from 'vitest';
import { GatewayError } from './gateway-error.js';
import { holdsSecret, redactGatewayError, redactSecrets, secretsToRedact } from './redact-secrets.js';

describe('redactSecrets', () => {
  const secrets = secretsToRedact(['sk-live-0123456789', 'sk-live-0123456789-longer', undefined, 'k', 'sk-live-0123456789']);

  it('keeps real keys only, longest first, once each', () => {
    expect(secrets).toEqual(['sk-live-0123456789-longer', 'sk-live-0123456789']);
  });

  it('blanks every occurrence of every key out of a text', () => {
    expect(redactSecrets('Incorrect API key provided: sk-live-0123456789-longer (and sk-live-0123456789).', secrets)).toBe(
      'Incorrect API key provided: [redacted] (and [redacted]).',
    );
    expect(redactSecrets('nothing here', secrets)).toBe('nothing here');
  });

  it('finds a key in bytes', () => {
    expect(holdsSecret(Buffer.from('data: {"error":"sk-live-0123456789"}'), secrets)).toBe(true);
    expect(holdsSecret(Buffer.from('data: {"error":"sk-live-01234"}'), secrets)).toBe(false);
  });

  it('redacts an error message and the upstream body it keeps, and leaves a clean error as it is', () => {
    const error = new GatewayError('authentication', 'bad key sk-live-0123456789', { status: 401, upstream: { status: 401, body: '{"error":"sk-live-0123456789"}' } });
    const redacted = redactGatewayError(error, secrets);
    expect(redacted).toMatchObject({ code: 'authentication', status: 401, message: 'bad key [redacted]', upstream: { status: 401, body: '{"error":"[redacted]"}' } });
    const clean = new GatewayError('timeout', 'slow');
    expect(redactGatewayError(clean, secrets)).toBe(clean);
  });
});
