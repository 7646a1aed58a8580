import { describe, expect, it } from 'vitest';
import { anthropicMessagesCodec } from './codec.js';

describe('anthropicMessagesCodec', () => {
  it('serves and calls Anthropic Messages with one request shape on both ends', () => {
    expect(anthropicMessagesCodec.protocol).toBe('anthropic-messages');
    const body = { model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: true };
    const { request } = anthropicMessagesCodec.decodeRequest(body, {});
    expect(anthropicMessagesCodec.encodeRequest(request, { model: 'claude-haiku-4-5-20251001' })).toEqual({
      path: '/v1/messages',
      body: { ...body, model: 'claude-haiku-4-5-20251001' },
      warnings: [],
    });
  });
});
