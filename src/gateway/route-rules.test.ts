import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/parse-config.js';
import { ProtocolRegistry } from '../protocols/protocol-registry.js';
import { BUILT_IN_PROTOCOLS } from '../protocols/registry.js';
import { matchRoute } from './route-rules.js';

const protocols = new ProtocolRegistry(BUILT_IN_PROTOCOLS);
const providers = { up: { type: 'openai-chat', baseURL: 'http://127.0.0.1:9/v1', discoverModels: false } };

/** The `to` of the route a request of `protocol` with `body` (and `headers`) takes under `routes`, or 'none'. */
function routed(routes: unknown[], body: Record<string, unknown>, options: { protocol?: string; inputTokens?: number; headers?: Record<string, string> } = {}): string {
  const config = parseConfig({ providers, routes }, {});
  const inbound = protocols.get(options.protocol ?? 'openai-chat');
  const { request } = inbound.codec.decodeRequest(body, {});
  const route = matchRoute(config.routes, { model: request.model, protocol: inbound.id, request, inputTokens: options.inputTokens, header: (name) => options.headers?.[name] });
  return route ? route.to.join(',') : 'none';
}

const chat = (extra: Record<string, unknown> = {}) => ({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'Hi' }], ...extra });
const image = { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] };
const tool = { type: 'function', function: { name: 'look', parameters: { type: 'object' } } };

describe('matchRoute: each `when` key, `false`, order and first match', () => {
  const table: Array<[string, unknown, Record<string, unknown>, Parameters<typeof routed>[2], boolean]> = [
    ['model glob matches', { model: 'claude-*haiku*' }, chat(), {}, true],
    ['model glob does not', { model: 'claude-*sonnet*' }, chat(), {}, false],
    ['model ? is one character', { model: 'claude-haiku-4-?' }, chat(), {}, true],
    ['protocol matches', { protocol: 'openai-chat' }, chat(), {}, true],
    ['protocol does not', { protocol: 'anthropic-messages' }, chat(), {}, false],
    ['minInputTokens reached', { minInputTokens: 100 }, chat(), { inputTokens: 100 }, true],
    ['minInputTokens not reached', { minInputTokens: 100 }, chat(), { inputTokens: 99 }, false],
    ['thinking asked', { thinking: true }, chat({ reasoning_effort: 'high' }), {}, true],
    ['thinking not asked', { thinking: true }, chat(), {}, false],
    ['thinking: false, not asked', { thinking: false }, chat(), {}, true],
    ['thinking: false, asked', { thinking: false }, chat({ reasoning_effort: 'low' }), {}, false],
    ['images present', { images: true }, chat({ messages: [image] }), {}, true],
    ['images absent', { images: true }, chat(), {}, false],
    ['images: false with an image', { images: false }, chat({ messages: [image] }), {}, false],
    ['tools offered', { tools: true }, chat({ tools: [tool] }), {}, true],
    ['tools: false with tools', { tools: false }, chat({ tools: [tool] }), {}, false],
    ['tools: false without', { tools: false }, chat(), {}, true],
    ['header glob matches', { header: { 'X-Team': 'ml-*' } }, chat(), { headers: { 'x-team': 'ml-research' } }, true],
    ['header glob does not', { header: { 'x-team': 'ml-*' } }, chat(), { headers: { 'x-team': 'web' } }, false],
    ['header required, absent', { header: { 'x-team': 'ml-*' } }, chat(), {}, false],
    ['header: true, present', { header: { 'x-team': true } }, chat(), { headers: { 'x-team': 'web' } }, true],
    ['header: false, present', { header: { 'x-team': false } }, chat(), { headers: { 'x-team': 'web' } }, false],
    ['header: false, absent', { header: { 'x-team': false } }, chat(), {}, true],
    ['every key must hold', { model: 'claude-*', tools: true }, chat(), {}, false],
    ['no key: every request', {}, chat(), {}, true],
  ];
  it.each(table)('%s', (_name, when, body, options, matches) => {
    expect(routed([{ when, to: 'up/target' }], body, options)).toBe(matches ? 'up/target' : 'none');
  });

  it('checks in order and the first match wins', () => {
    const routes = [
      { when: { tools: true }, to: 'up/tools' },
      { when: { model: 'claude-*' }, to: ['up/claude', 'up/backup'] },
      { when: {}, to: 'up/any' },
    ];
    expect(routed(routes, chat({ tools: [tool] }))).toBe('up/tools');
    expect(routed(routes, chat())).toBe('up/claude,up/backup');
    expect(routed(routes, chat({ model: 'gpt-x' }))).toBe('up/any');
    expect(routed(routes.slice(0, 2), chat({ model: 'gpt-x' }))).toBe('none');
  });

  it('reads the client protocol of an Anthropic request, and its thinking', () => {
    const body = { model: 'claude-x', max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'Hi' }] };
    expect(routed([{ when: { protocol: 'anthropic-messages', thinking: true }, to: 'up/t' }], body, { protocol: 'anthropic-messages' })).toBe('up/t');
  });
});
