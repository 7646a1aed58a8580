import { describe, expect, it } from 'vitest';
import { parseConfig } from './parse-config.js';

describe('parseConfig', () => {
  it('gives the defaults with no file: the mock provider only, local mode', () => {
    const config = parseConfig(undefined, {});
    expect(config.providers.map((provider) => [provider.id, provider.type])).toEqual([['mock', 'mock']]);
    expect(config.keys).toEqual([]);
    expect(config.server).toEqual({ host: '127.0.0.1', port: 4141, bodyLimitBytes: 64 * 2 ** 20, shutdownGraceMs: 10_000, allowedHosts: [] });
    expect(config.inspector).toEqual({ keep: 200, bodyMaxMb: 256 });
    expect(config.recoveries).toEqual({ onDisconnect: 'drain', drainTimeoutMs: 600_000, maxRecords: 1000, maxAgeMs: 7 * 86_400_000, resume: true, resumeWindowMs: 600_000 });
  });

  it('reads admin keys, server.allowedHosts and inspector.keep and .bodyMaxMb, and refuses an empty allowed host', () => {
    const config = parseConfig({ keys: [{ key: 'k1', user: 'a' }, { key: 'k2', user: 'ops', admin: true }], server: { allowedHosts: ['gateway.lan'] }, inspector: { keep: 0, bodyMaxMb: 64 } }, {});
    expect(config.keys).toEqual([{ key: 'k1', user: 'a', admin: false }, { key: 'k2', user: 'ops', admin: true }]);
    expect(config.server.allowedHosts).toEqual(['gateway.lan']);
    expect(config.inspector).toEqual({ keep: 0, bodyMaxMb: 64 });
    expect(() => parseConfig({ server: { allowedHosts: [''] } }, {})).toThrow(/server\.allowedHosts/);
    expect(() => parseConfig({ inspector: { keep: -1 } }, {})).toThrow(/inspector\.keep/);
  });

  it('fills presets, reads $NAME and ${NAME} from the environment, and creates providers from env keys', () => {
    const config = parseConfig(
      { providers: { local: { preset: 'ollama', models: ['llama3.2'] }, claude: { preset: 'anthropic', apiKey: '${MY_KEY}' } } },
      { MY_KEY: 'sk-ant', OPENAI_API_KEY: 'sk-oai', GOOGLE_API_KEY: 'g-key' },
    );
    expect(config.providers.map((provider) => [provider.id, provider.type, provider.baseURL, provider.apiKey])).toEqual([
      ['local', 'openai-chat', 'http://127.0.0.1:11434/v1', undefined],
      ['claude', 'anthropic-messages', 'https://api.anthropic.com', 'sk-ant'],
      ['mock', 'mock', 'mock:', undefined],
      ['openai', 'openai-chat', 'https://api.openai.com/v1', 'sk-oai'],
      ['gemini', 'gemini', 'https://generativelanguage.googleapis.com', 'g-key'],
    ]);
  });

  it('reads store: files by default, a postgres URL from $NAME, never echoing the URL in an error', () => {
    expect(parseConfig(undefined, {}).store).toEqual({ type: 'files' });
    const url = 'postgres://team:s3cret-pass@db:5432/switchyard';
    expect(parseConfig({ store: { type: 'postgres', url: '$DATABASE_URL' } }, { DATABASE_URL: url }).store).toEqual({ type: 'postgres', url });
    expect(() => parseConfig({ store: { type: 'postgres', url: '$DATABASE_URL' } }, {})).toThrow(/store\.url: refers to the environment variable DATABASE_URL, which is not set/);
    expect(() => parseConfig({ store: { type: 'postgres' } }, {})).toThrow(/store\.url: a postgres store needs a url/);
    expect(() => parseConfig({ store: { type: 'files', url } }, {})).toThrow(/store\.url: only a postgres store takes a url/);
    const wrongScheme = 'mysql://team:s3cret-pass@db/x';
    expect(() => parseConfig({ store: { type: 'postgres', url: wrongScheme } }, {})).toThrow(/store\.url: expected a postgres:\/\/ or postgresql:\/\/ URL$/);
    expect(() => parseConfig({ store: { type: 'sqlite' } }, {})).toThrow(/store\.type/);
  });

  it('turns the mock provider off', () => {
    expect(parseConfig({ providers: { mock: false } }, {}).providers).toEqual([]);
  });

  it.each([
    [{ providers: { x: { type: 'soap' } } }, 'providers.x.type'],
    [{ providers: { x: { type: 'openai-chat' } } }, 'providers.x.baseURL'],
    [{ providers: { x: { preset: 'nope' } } }, 'providers.x.preset'],
    [{ providers: { x: { preset: 'openai', apiKey: '$UNSET_VARIABLE' } } }, 'providers.x.apiKey'],
    [{ providers: { x: { preset: 'openai', models: 'gpt' } } }, 'providers.x.models'],
    [{ keys: [{ key: 'k' }] }, 'keys[0].user'],
    [{ server: { port: 70000 } }, 'server.port'],
    [{ recoveries: { onDisconnect: 'explode' } }, 'recoveries.onDisconnect'],
    [{ colour: 'blue' }, 'colour'],
  ])('names the field at fault: %j', (raw, field) => {
    expect(() => parseConfig(raw, {}, '/etc/switchyard.json')).toThrowError(new RegExp(`^/etc/switchyard\\.json: ${field.replace(/[.[\]$]/g, '\\$&')}: `));
  });
});
