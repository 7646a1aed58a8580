import { describe, expect, it } from 'vitest';
import { GatewayError, invalidRequest, type GatewayErrorCode } from '../../core/gateway-error.js';
import { encodeGeminiError } from './encode-error.js';

describe('encodeGeminiError', () => {
  it.each<[GatewayErrorCode, number | undefined, number, string]>([
    ['invalid_request', undefined, 400, 'INVALID_ARGUMENT'],
    ['authentication', undefined, 401, 'UNAUTHENTICATED'],
    ['permission', undefined, 403, 'PERMISSION_DENIED'],
    ['not_found', undefined, 404, 'NOT_FOUND'],
    ['request_too_large', undefined, 413, 'INVALID_ARGUMENT'],
    ['unsupported_media_type', undefined, 415, 'INVALID_ARGUMENT'],
    ['rate_limit', undefined, 429, 'RESOURCE_EXHAUSTED'],
    ['billing', undefined, 429, 'RESOURCE_EXHAUSTED'],
    ['upstream_error', undefined, 502, 'INTERNAL'],
    ['overloaded', undefined, 503, 'UNAVAILABLE'],
    ['overloaded', 529, 503, 'UNAVAILABLE'],
    ['timeout', undefined, 504, 'DEADLINE_EXCEEDED'],
    ['internal', undefined, 500, 'INTERNAL'],
  ])('%s (HTTP %s) → %s %s', (code, status, expectedStatus, rpcStatus) => {
    const encoded = encodeGeminiError(new GatewayError(code, 'Something failed.', status === undefined ? {} : { status }));
    expect(encoded).toEqual({ status: expectedStatus, body: { error: { code: expectedStatus, message: 'Something failed.', status: rpcStatus } } });
  });

  it('names the field at fault in a google.rpc.BadRequest detail', () => {
    expect(encodeGeminiError(invalidRequest('generationConfig.temperature', 'Too hot.')).body).toEqual({
      error: {
        code: 400,
        message: 'Too hot.',
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'generationConfig.temperature', description: 'Too hot.' }] }],
      },
    });
  });
});
