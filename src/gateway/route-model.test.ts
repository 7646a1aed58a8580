import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/parse-config.js';
import type { ProviderConfig } from '../config/config-types.js';
import { resolveTargets } from './route-model.js';

const config = parseConfig(
  {
    providers: {
      first: { type: 'openai-chat', baseURL: 'http://127.0.0.1:1/v1', models: ['shared', 'only-first'] },
      second: { type: 'gemini', baseURL: 'http://127.0.0.1:2', models: ['shared', 'gemini-pro'] },
    },
    aliases: { fast: 'second/gemini-pro', 'claude-*': 'first/only-first' },
    defaultModels: { 'anthropic-messages': 'mock/mock-echo' },
  },
  {},
);
const listed = (provider: ProviderConfig) => (provider.type === 'mock' ? ['mock-echo'] : provider.models);
const route = (name: string, inbound: Parameters<typeof resolveTargets>[3] = 'openai-chat', within = config) =>
  resolveTargets(name, within, listed, inbound)
    .map((target) => `${target.provider.id}/${target.model}`)
    .join(' → ');

describe('resolveModel', () => {
  it('takes provider/model first, even for models the provider does not list', () => {
    expect(route('second/shared')).toBe('second/shared');
    expect(route('first/anything-new')).toBe('first/anything-new');
  });
  it('sends a bare name to the first provider that lists it', () => {
    expect(route('shared')).toBe('first/shared');
    expect(route('gemini-pro')).toBe('second/gemini-pro');
  });
  it('follows aliases, exact and glob', () => {
    expect(route('fast')).toBe('second/gemini-pro');
    expect(route('claude-sonnet-4-5')).toBe('first/only-first');
  });
  it('lets an alias win over a provider that lists the same name, and provider/model over an alias (agents that insist on their own model names)', () => {
    const withAnthropic = parseConfig(
      {
        providers: {
          anthropic: { type: 'anthropic-messages', baseURL: 'http://127.0.0.1:3', models: ['claude-opus-5-5'] },
          gemini: { type: 'gemini', baseURL: 'http://127.0.0.1:4', models: ['gemini-2.5-pro'] },
        },
        aliases: { 'claude-*': 'gemini/gemini-2.5-pro' },
      },
      {},
    );
    const routeIn = (name: string) => route(name, 'anthropic-messages', withAnthropic);
    expect(routeIn('claude-opus-5-5')).toBe('gemini/gemini-2.5-pro');
    expect(routeIn('anthropic/claude-opus-5-5')).toBe('anthropic/claude-opus-5-5');
  });
  it("falls back to the client protocol's default model", () => {
    expect(route('unheard-of', 'anthropic-messages')).toBe('mock/mock-echo');
  });
  it('is a 404 naming the model otherwise; an unknown provider prefix is just a model name', () => {
    expect(() => route('unheard-of')).toThrowError(/'unheard-of' does not exist.*GET \/v1\/models/);
    expect(() => route('openai/gpt-4o')).toThrowError(/'openai\/gpt-4o'/);
  });
  it('a list is a fallback chain, in order; an alias may name other aliases, each expanded in place, a target named twice tried once', () => {
    const chained = parseConfig(
      {
        providers: {
          first: { type: 'openai-chat', baseURL: 'http://127.0.0.1:1/v1', models: ['shared', 'only-first'] },
          second: { type: 'gemini', baseURL: 'http://127.0.0.1:2', models: ['shared', 'gemini-pro'] },
        },
        aliases: { smart: ['first/big', 'cheap', 'second/gemini-pro'], cheap: ['second/gemini-pro', 'shared'], 'shared-*': 'nowhere-listed' },
      },
      {},
    );
    expect(route('smart', 'openai-chat', chained)).toBe('first/big → second/gemini-pro → first/shared');
    expect(route('cheap', 'openai-chat', chained)).toBe('second/gemini-pro → first/shared');
    expect(() => route('shared-x', 'openai-chat', chained)).toThrowError(/alias of 'nowhere-listed', which no provider serves/);
  });
  it("a route's targets come before everything, a provider/model included", () => {
    expect(resolveTargets('first/only-first', config, listed, 'openai-chat', ['fast']).map((target) => target.model)).toEqual(['gemini-pro']);
  });
});
