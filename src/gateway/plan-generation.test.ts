import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/parse-config.js';
import { ProtocolRegistry } from '../protocols/protocol-registry.js';
import { BUILT_IN_PROTOCOLS } from '../protocols/registry.js';
import { MOCK_MODEL_IDS } from '../providers/mock/mock-models.js';
import { planGeneration } from './plan-generation.js';

const protocols = new ProtocolRegistry(BUILT_IN_PROTOCOLS);
const config = parseConfig(
  {
    providers: {
      chat: { type: 'openai-chat', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', models: ['gpt-x'], discoverModels: false },
      claude: { type: 'anthropic-messages', baseURL: 'http://127.0.0.1:9', apiKey: 'k', models: ['claude-x'], discoverModels: false },
    },
    aliases: { fast: 'chat/gpt-x', chain: ['chat/gpt-x', 'claude/claude-x'] },
  },
  {},
);

/** Plans `body` as a client of `protocol` would send it. */
function plan(protocol: string, body: Record<string, unknown>) {
  const inbound = protocols.get(protocol);
  const decoded = inbound.codec.decodeRequest(body, {});
  return planGeneration({ inbound, decoded, body, search: '', bodyBytes: Buffer.from(JSON.stringify(body)), decodeOptions: {}, config, protocols, listed: (provider) => (provider.type === 'mock' ? MOCK_MODEL_IDS : provider.models) });
}

const chatBody = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content: 'Hi' }], ...extra });

describe('planGeneration', () => {
  it('a client of the upstream protocol: one passthrough attempt that sends the client bytes as they are', () => {
    const { attempts } = plan('openai-chat', chatBody('gpt-x'));
    expect(attempts).toHaveLength(1);
    const [attempt] = attempts;
    expect(attempt).toMatchObject({ model: 'gpt-x', mode: 'passthrough', warnings: [] });
    expect(attempt.provider.id).toBe('chat');
    expect(attempt.upstream?.id).toBe('openai-chat');
    expect(attempt.call?.path).toBe('/chat/completions');
    expect(attempt.call?.body).toBeUndefined();
  });

  it('an alias is resolved, and the body is rewritten for the upstream model', () => {
    const [attempt] = plan('openai-chat', chatBody('fast')).attempts;
    expect(attempt).toMatchObject({ model: 'gpt-x', mode: 'passthrough' });
    expect(JSON.parse(attempt.call!.body!.toString()).model).toBe('gpt-x');
  });

  it('a client of another protocol: one translated attempt with the encoded request and its warnings', () => {
    const [attempt] = plan('openai-chat', chatBody('claude-x', { logprobs: true, max_tokens: 50 })).attempts;
    expect(attempt).toMatchObject({ model: 'claude-x', mode: 'translate' });
    expect(attempt.call?.path).toBe('/v1/messages');
    const sent = JSON.parse(attempt.call!.body!.toString());
    expect(sent).toMatchObject({ model: 'claude-x', max_tokens: 50, messages: [{ role: 'user' }] });
    expect(attempt.warnings.map((warning) => warning.feature)).toContain('logprobs');
  });

  it("a chain: the first attempt is made whole, a fallback's request and warnings only when it is to be tried", () => {
    const [first, fallback] = plan('openai-chat', chatBody('chain', { logprobs: true, max_tokens: 50 })).attempts;
    expect(first).toMatchObject({ model: 'gpt-x', mode: 'passthrough', warnings: [] });
    expect(first.deferred).toBeUndefined();
    expect(JSON.parse(first.call!.body!.toString()).model).toBe('gpt-x');
    expect(fallback).toMatchObject({ model: 'claude-x', mode: 'translate', warnings: [], call: undefined });
    fallback.deferred!.make(fallback);
    expect(fallback.deferred).toBeUndefined();
    expect(fallback.call?.path).toBe('/v1/messages');
    expect(JSON.parse(fallback.call!.body!.toString())).toMatchObject({ model: 'claude-x', max_tokens: 50 });
    expect(fallback.warnings.map((warning) => warning.feature)).toContain('logprobs');
  });

  it('the mock models: no upstream, no request to send', () => {
    const [attempt] = plan('anthropic-messages', { model: 'mock-echo', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }).attempts;
    expect(attempt).toMatchObject({ model: 'mock-echo', mode: 'mock' });
    expect(attempt.upstream).toBeUndefined();
    expect(attempt.call).toBeUndefined();
  });

  it('throws the client error for what no attempt can serve: an unknown model, too many choices', () => {
    expect(() => plan('openai-chat', chatBody('nope'))).toThrow(expect.objectContaining({ status: 404, param: 'model' }));
    expect(() => plan('openai-chat', chatBody('claude-x', { n: 2 }))).toThrow(expect.objectContaining({ status: 400, param: 'n' }));
  });

  it('a request that refers to state only its vendor keeps cannot be translated', () => {
    expect(() => plan('openai-responses', { model: 'claude-x', input: 'Hi', previous_response_id: 'resp_1' })).toThrow(expect.objectContaining({ status: 400, param: 'previous_response_id' }));
  });
});
