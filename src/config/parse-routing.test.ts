import { describe, expect, it } from 'vitest';
import { parseConfig } from './parse-config.js';

const providers = {
  claude: { type: 'anthropic-messages', baseURL: 'http://127.0.0.1:9', apiKey: ['sk-a-0000000001', '$SECOND_KEY'], models: [{ id: 'claude-x', maxOutputTokens: 8192 }, 'claude-y'], retry: { attempts: 3 } },
  local: { type: 'openai-chat', baseURL: 'http://127.0.0.1:8/v1', cooldown: { ms: 5000 } },
};
const parse = (extra: Record<string, unknown>) => parseConfig({ providers, ...extra }, { SECOND_KEY: 'sk-b-0000000002' }, 'config.json');

describe('routing settings', () => {
  it('reads key pools, model limits, aliases as chains, and retry and cooldown merged per provider', () => {
    const config = parse({ aliases: { smart: ['claude/claude-x', 'local/qwen3'], fast: 'local/qwen3' }, retry: { maxWaitMs: 5000 }, cooldown: { failures: 2 } });
    const claude = config.providers.find((provider) => provider.id === 'claude')!;
    expect(claude).toMatchObject({ apiKey: 'sk-a-0000000001', apiKeys: ['sk-a-0000000001', 'sk-b-0000000002'], models: ['claude-x', 'claude-y'], limits: { 'claude-x': { maxOutputTokens: 8192 } } });
    expect(claude.retry).toEqual({ attempts: 3, onStatus: [408, 429, 500, 502, 503, 504, 529], maxWaitMs: 5000 });
    expect(config.providers.find((provider) => provider.id === 'local')!.cooldown).toEqual({ failures: 2, ms: 5000 });
    expect(config.aliases).toEqual({ smart: ['claude/claude-x', 'local/qwen3'], fast: ['local/qwen3'] });
    expect(config.retry).toEqual({ attempts: 1, onStatus: [408, 429, 500, 502, 503, 504, 529], maxWaitMs: 5000 });
    expect(config.countsInputTokens).toBe(false);
    expect(parse({ routes: [{ when: { minInputTokens: 60000 }, to: 'smart' }] }).countsInputTokens).toBe(true);
  });

  it('names the field of every mistake: an unknown provider, a cycle of aliases, a bad glob, an unknown protocol', () => {
    expect(() => parse({ routes: [{ when: {}, to: ['claude/claude-x', 'nope/model'] }] })).toThrowError(/routes\[0\]\.to\[1\].*'nope'.*not configured/);
    expect(() => parse({ aliases: { smart: ['claude/claude-x', 'gone/m'] } })).toThrowError(/aliases\.smart\[1\].*'gone'/);
    expect(() => parse({ aliases: { a: ['b'], b: 'c', c: ['claude/claude-x', 'a'] } })).toThrowError(/aliases\.a.*cycle: a → b → c → a/);
    expect(() => parse({ routes: [{ when: { model: 'claude-{haiku,sonnet}' }, to: 'claude/claude-x' }] })).toThrowError(/routes\[0\]\.when\.model.*only \* .* and \?/);
    expect(() => parse({ routes: [{ when: { protocol: 'smtp' }, to: 'claude/claude-x' }] })).toThrowError(/routes\[0\]\.when\.protocol.*expected one of/);
    expect(() => parse({ routes: [{ when: { header: { 'x-team': '' } }, to: 'claude/claude-x' }] })).toThrowError(/routes\[0\]\.when\.header\.x-team/);
  });

  it('an alias naming itself means the model of that name', () => {
    expect(parse({ aliases: { 'claude-y': ['claude-y', 'local/qwen3'] } }).aliases['claude-y']).toEqual(['claude-y', 'local/qwen3']);
  });
});
