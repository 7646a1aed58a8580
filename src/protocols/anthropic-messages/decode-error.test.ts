import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeAnthropicMessagesError } from './decode-error.js';

const FIXTURES = new URL('../../../test/fixtures/anthropic-messages/', import.meta.url);

describe('decodeAnthropicMessagesError', () => {
  it.each([
    [
      'error-400-invalid-request.json',
      400,
      { code: 'invalid_request', detailCode: 'invalid_request_error', message: "This model does not support effort level 'xhigh'. Supported levels: high, low, max, medium." },
    ],
    ['error-404-not-found.json', 404, { code: 'not_found', detailCode: 'not_found_error', message: 'model: claude-sonet-4-5' }],
  ])('decodes %s and keeps the body for passthrough', (name, status, expected) => {
    const body = readFileSync(new URL(name, FIXTURES), 'utf8');
    const error = decodeAnthropicMessagesError(status, body);
    expect({ code: error.code, detailCode: error.detailCode, message: error.message }).toEqual(expected);
    expect(error.status).toBe(status);
    expect(error.upstream).toEqual({ status, body, contentType: 'application/json' });
  });

  it('maps 529 to overloaded and keeps a proxy page that is not JSON as text', () => {
    expect(decodeAnthropicMessagesError(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toMatchObject({
      code: 'overloaded',
      status: 529,
      detailCode: 'overloaded_error',
      message: 'Overloaded',
    });
    const tooLarge = decodeAnthropicMessagesError(413, '<html>413 Request Entity Too Large</html>');
    expect(tooLarge).toMatchObject({ code: 'request_too_large', message: '<html>413 Request Entity Too Large</html>' });
    expect(tooLarge.upstream?.contentType).toBe('text/plain');
    expect(decodeAnthropicMessagesError(500, '').message).toBe('The upstream answered with HTTP 500.');
  });
});
