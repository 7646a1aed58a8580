import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeGeminiError } from './decode-error.js';

const readFixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/gemini/${name}`, import.meta.url), 'utf8');

describe('decodeGeminiError', () => {
  it.each([
    ['error-400-invalid-argument.json', 400, 'invalid_request', 'Request contains an invalid argument.'],
    ['error-400-invalid-argument-vertex.json', 400, 'invalid_request', 'Cannot fetch content from the provided URL.'],
    ['error-404-not-found.json', 404, 'not_found', 'models/gemini-3.6-flahs is not found for API version v1beta'],
  ])('%s → %s %s, the body kept for passthrough', (name, status, code, message) => {
    const body = readFixture(name);
    const error = decodeGeminiError(status, body);
    expect(error).toMatchObject({ code, status, upstream: { status, body, contentType: 'application/json' } });
    expect(error.message.startsWith(message)).toBe(true);
    expect(error.detailCode).toBe(status === 404 ? 'NOT_FOUND' : 'INVALID_ARGUMENT');
  });

  it('reads an invalid API key (400 with reason API_KEY_INVALID) as an authentication failure', () => {
    const body = JSON.stringify({
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
      },
    });
    expect(decodeGeminiError(400, body)).toMatchObject({ code: 'authentication', status: 400, detailCode: 'API_KEY_INVALID', message: 'API key not valid. Please pass a valid API key.' });
  });

  it('reads the array form and bodies that are not JSON', () => {
    expect(decodeGeminiError(429, '[{"error":{"code":429,"message":"Quota exceeded.","status":"RESOURCE_EXHAUSTED"}}]')).toMatchObject({
      code: 'rate_limit',
      message: 'Quota exceeded.',
      detailCode: 'RESOURCE_EXHAUSTED',
    });
    expect(decodeGeminiError(503, 'Service Unavailable')).toMatchObject({ code: 'overloaded', status: 503, message: 'Service Unavailable' });
    expect(decodeGeminiError(500, '')).toMatchObject({ code: 'upstream_error', message: 'The upstream answered with HTTP 500.' });
  });
});
