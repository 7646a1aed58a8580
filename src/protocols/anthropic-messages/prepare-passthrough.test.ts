import { describe, expect, it } from 'vitest';
import { prepareAnthropicMessagesPassthrough } from './prepare-passthrough.js';

describe('prepareAnthropicMessagesPassthrough', () => {
  it("forwards the client's body with the upstream model, keeping the beta query", () => {
    const body = { model: 'my-alias', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }], stream: true };
    expect(prepareAnthropicMessagesPassthrough(body, { model: 'claude-sonnet-4-5-20250929', stream: true, search: '?beta=true' })).toEqual({
      path: '/v1/messages?beta=true',
      body: { ...body, model: 'claude-sonnet-4-5-20250929' },
    });
    expect(prepareAnthropicMessagesPassthrough(body, { model: 'm', stream: false, search: '' }).path).toBe('/v1/messages');
    // The same model: the client's bytes go upstream as they are.
    expect(prepareAnthropicMessagesPassthrough({ ...body, model: 'same' }, { model: 'same', stream: false, search: '' })).toEqual({ path: '/v1/messages' });
    expect(body.model).toBe('my-alias');
  });
});
