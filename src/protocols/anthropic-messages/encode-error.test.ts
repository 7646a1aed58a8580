import { describe, expect, it } from 'vitest';
import { GatewayError, type GatewayErrorCode } from '../../core/gateway-error.js';
import { encodeAnthropicMessagesError } from './encode-error.js';

describe('encodeAnthropicMessagesError', () => {
  // docs/protocols.md §2.6, one row per neutral code.
  const table: Record<GatewayErrorCode, [number, string]> = {
    invalid_request: [400, 'invalid_request_error'],
    authentication: [401, 'authentication_error'],
    billing: [402, 'billing_error'],
    permission: [403, 'permission_error'],
    not_found: [404, 'not_found_error'],
    request_too_large: [413, 'request_too_large'],
    unsupported_media_type: [415, 'invalid_request_error'],
    rate_limit: [429, 'rate_limit_error'],
    upstream_error: [502, 'api_error'],
    internal: [500, 'api_error'],
    timeout: [504, 'timeout_error'],
    overloaded: [529, 'overloaded_error'],
  };
  it.each(Object.entries(table) as Array<[GatewayErrorCode, [number, string]]>)('renders %s', (code, [status, type]) => {
    expect(encodeAnthropicMessagesError(new GatewayError(code, 'Something happened.'))).toEqual({
      status,
      body: { type: 'error', error: { type, message: 'Something happened.' }, request_id: null },
    });
  });

  it.each<[string, GatewayError, number, string]>([
    ['an upstream 500', new GatewayError('upstream_error', 'Boom.', { status: 500 }), 500, 'api_error'],
    ['a 426 for a WebSocket upgrade', new GatewayError('invalid_request', 'Use HTTP.', { status: 426 }), 426, 'invalid_request_error'],
    ['an upstream 503', new GatewayError('overloaded', 'Busy.', { status: 503 }), 529, 'overloaded_error'],
    ['an upstream 408', new GatewayError('timeout', 'Slow.', { status: 408 }), 408, 'timeout_error'],
  ])('keeps the status of %s unless Anthropic has its own', (_name, error, status, type) => {
    expect(encodeAnthropicMessagesError(error)).toMatchObject({ status, body: { error: { type } } });
  });
});
