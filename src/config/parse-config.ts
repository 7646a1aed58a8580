import { isProtocol, type Protocol } from '../core/protocol.js';
import { ConfigError } from './config-error.js';
import {
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_TIMEOUT_MS,
  type GatewayConfig,
  type KeyConfig,
  type ProviderConfig,
  type ProviderType,
} from './config-types.js';
import { ENVIRONMENT_PRESETS, PROVIDER_PRESETS } from './presets.js';

type Raw = Record<string, unknown>;

const PROVIDER_TYPES: readonly ProviderType[] = ['openai-chat', 'anthropic-messages', 'openai-responses', 'gemini', 'mock'];
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Raw config JSON (or nothing) + environment → validated config. Pure: the environment is passed
 * in. Every problem is a ConfigError naming the file and the field.
 */
export function parseConfig(input: unknown, env: Record<string, string | undefined>, file?: string): GatewayConfig {
  const fail = (field: string | undefined, detail: string): never => {
    throw new ConfigError(file, field, detail);
  };
  const raw: Raw = input === undefined ? {} : isRaw(input) ? input : fail(undefined, 'expected a JSON object at the top level');
  const known = new Set(['$schema', 'providers', 'keys', 'aliases', 'defaultModels', 'server', 'recoveries']);
  for (const key of Object.keys(raw)) if (!known.has(key)) fail(key, `unknown setting (known: ${[...known].slice(1).join(', ')})`);

  const providers: ProviderConfig[] = [];
  const rawProviders = optionalObject(raw.providers, 'providers', fail) ?? {};
  let mockConfigured = false;
  for (const [id, value] of Object.entries(rawProviders)) {
    if (!/^[A-Za-z0-9_.-]+$/.test(id)) fail(`providers.${id}`, 'provider ids may hold letters, digits, _ . and - only');
    if (value === false) {
      if (id === 'mock') mockConfigured = true;
      continue;
    }
    const provider = parseProvider(id, value, env, fail);
    if (provider.type === 'mock') mockConfigured = true;
    if (provider) providers.push(provider);
  }
  if (!mockConfigured) providers.push(createMockProvider('mock', {}, fail));
  for (const presetName of ENVIRONMENT_PRESETS) {
    if (providers.some((provider) => provider.id === presetName) || presetName in rawProviders) continue;
    const preset = PROVIDER_PRESETS[presetName];
    const apiKey = preset.apiKeyEnv?.map((name) => env[name]).find((value) => value);
    if (!apiKey) continue;
    providers.push({
      id: presetName,
      type: preset.type,
      baseURL: preset.baseURL,
      apiKey,
      models: [],
      headers: {},
      discoverModels: true,
      forwardClientKey: false,
      timeoutMs: DEFAULT_TIMEOUT_MS,
    });
  }

  const keys: KeyConfig[] = (optionalArray(raw.keys, 'keys', fail) ?? []).map((entry, index) => {
    const key = requireRaw(entry, `keys[${index}]`, fail);
    const value = resolveEnvReference(requireString(key.key, `keys[${index}].key`, fail), env, `keys[${index}].key`, fail);
    const user = requireString(key.user, `keys[${index}].user`, fail);
    if (!value) fail(`keys[${index}].key`, 'must not be empty');
    return { key: value, user };
  });

  const aliases: Record<string, string> = {};
  for (const [name, target] of Object.entries(optionalObject(raw.aliases, 'aliases', fail) ?? {})) {
    aliases[name] = requireString(target, `aliases.${name}`, fail);
  }
  const defaultModels: Partial<Record<Protocol, string>> = {};
  for (const [protocol, model] of Object.entries(optionalObject(raw.defaultModels, 'defaultModels', fail) ?? {})) {
    if (!isProtocol(protocol)) fail(`defaultModels.${protocol}`, `expected one of ${PROVIDER_TYPES.slice(0, 4).join(', ')}`);
    defaultModels[protocol as Protocol] = requireString(model, `defaultModels.${protocol}`, fail);
  }

  const server = optionalObject(raw.server, 'server', fail) ?? {};
  const recoveries = optionalObject(raw.recoveries, 'recoveries', fail) ?? {};
  const onDisconnect = optionalString(recoveries.onDisconnect, 'recoveries.onDisconnect', fail) ?? 'drain';
  if (onDisconnect !== 'drain' && onDisconnect !== 'cancel') fail('recoveries.onDisconnect', "expected 'drain' or 'cancel'");

  return {
    providers,
    keys,
    aliases,
    defaultModels,
    server: {
      host: optionalString(server.host, 'server.host', fail) ?? DEFAULT_HOST,
      port: optionalNumber(server.port, 'server.port', fail, 0, 65535) ?? DEFAULT_PORT,
      bodyLimitBytes: Math.round((optionalNumber(server.bodyLimitMb, 'server.bodyLimitMb', fail, 1, 4096) ?? DEFAULT_BODY_LIMIT_BYTES / 2 ** 20) * 2 ** 20),
      shutdownGraceMs: optionalNumber(server.shutdownGraceMs, 'server.shutdownGraceMs', fail, 0, 3_600_000) ?? 10_000,
    },
    recoveries: {
      onDisconnect: onDisconnect as 'drain' | 'cancel',
      drainTimeoutMs: optionalNumber(recoveries.drainTimeoutMs, 'recoveries.drainTimeoutMs', fail, 0, 24 * 3_600_000) ?? 10 * 60 * 1000,
      maxRecords: optionalNumber(recoveries.maxRecords, 'recoveries.maxRecords', fail, 1, 1_000_000) ?? 1000,
      maxAgeMs: (optionalNumber(recoveries.maxAgeDays, 'recoveries.maxAgeDays', fail, 0, 3650) ?? 7) * DAY_MS,
    },
    ...(file !== undefined && { path: file }),
  };
}

type Fail = (field: string | undefined, detail: string) => never;

function parseProvider(id: string, value: unknown, env: Record<string, string | undefined>, fail: Fail): ProviderConfig {
  const field = `providers.${id}`;
  const raw = requireRaw(value, field, fail);
  const known = new Set(['type', 'preset', 'baseURL', 'apiKey', 'models', 'headers', 'discoverModels', 'forwardClientKey', 'timeoutMs', 'enabled', 'slowIntervalMs', 'slowPieces', 'failStatus']);
  for (const key of Object.keys(raw)) if (!known.has(key)) fail(`${field}.${key}`, `unknown setting (known: ${[...known].join(', ')})`);
  const presetName = optionalString(raw.preset, `${field}.preset`, fail);
  const preset = presetName === undefined ? undefined : PROVIDER_PRESETS[presetName];
  if (presetName !== undefined && !preset) fail(`${field}.preset`, `unknown preset '${presetName}' (known: ${Object.keys(PROVIDER_PRESETS).join(', ')})`);
  const type = optionalString(raw.type, `${field}.type`, fail) ?? preset?.type ?? (id === 'mock' ? 'mock' : undefined);
  if (type === undefined) fail(`${field}.type`, `missing: set "type" (${PROVIDER_TYPES.join(', ')}) or "preset"`);
  if (!(PROVIDER_TYPES as readonly string[]).includes(type!)) fail(`${field}.type`, `expected one of ${PROVIDER_TYPES.join(', ')}, got '${type}'`);
  if (type === 'mock') return createMockProvider(id, raw, fail);

  const baseURL = optionalString(raw.baseURL, `${field}.baseURL`, fail) ?? preset?.baseURL;
  if (!baseURL) fail(`${field}.baseURL`, 'missing: the upstream base URL (OpenAI-style URLs include /v1)');
  try {
    const url = new URL(baseURL!);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
  } catch {
    fail(`${field}.baseURL`, `not an http(s) URL: '${baseURL}'`);
  }
  const rawKey = optionalString(raw.apiKey, `${field}.apiKey`, fail);
  const apiKey = rawKey === undefined ? undefined : resolveEnvReference(rawKey, env, `${field}.apiKey`, fail);
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(optionalObject(raw.headers, `${field}.headers`, fail) ?? {})) {
    headers[name.toLowerCase()] = resolveEnvReference(requireString(headerValue, `${field}.headers.${name}`, fail), env, `${field}.headers.${name}`, fail);
  }
  return {
    id,
    type: type as ProviderType,
    baseURL: baseURL!.replace(/\/+$/, ''),
    ...(apiKey && { apiKey }),
    models: parseModels(raw.models, `${field}.models`, fail),
    headers,
    discoverModels: optionalBoolean(raw.discoverModels, `${field}.discoverModels`, fail) ?? true,
    forwardClientKey: optionalBoolean(raw.forwardClientKey, `${field}.forwardClientKey`, fail) ?? false,
    timeoutMs: optionalNumber(raw.timeoutMs, `${field}.timeoutMs`, fail, 1, 24 * 3_600_000) ?? DEFAULT_TIMEOUT_MS,
  };
}

function createMockProvider(id: string, raw: Raw, fail: Fail): ProviderConfig {
  const field = `providers.${id}`;
  if (raw.enabled === false) return Object.assign(createMockProvider(id, {}, fail), { models: [] });
  return {
    id,
    type: 'mock',
    baseURL: 'mock:',
    models: parseModels(raw.models, `${field}.models`, fail),
    headers: {},
    discoverModels: false,
    forwardClientKey: false,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    mock: {
      slowIntervalMs: optionalNumber(raw.slowIntervalMs, `${field}.slowIntervalMs`, fail, 0, 60_000) ?? 100,
      slowPieces: optionalNumber(raw.slowPieces, `${field}.slowPieces`, fail, 1, 100_000) ?? 100,
      failStatus: optionalNumber(raw.failStatus, `${field}.failStatus`, fail, 400, 599) ?? 503,
    },
  };
}

function parseModels(value: unknown, field: string, fail: Fail): string[] {
  return (optionalArray(value, field, fail) ?? []).map((model, index) => requireString(model, `${field}[${index}]`, fail));
}

/** `"$NAME"` or `"${NAME}"` reads the environment; a missing variable is an error naming both. */
function resolveEnvReference(value: string, env: Record<string, string | undefined>, field: string, fail: Fail): string {
  const match = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/.exec(value);
  if (!match) return value;
  const name = match[1] ?? match[2];
  const resolved = env[name];
  if (resolved === undefined || resolved === '') fail(field, `refers to the environment variable ${name}, which is not set`);
  return resolved!;
}

function isRaw(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function requireRaw(value: unknown, field: string, fail: Fail): Raw {
  return isRaw(value) ? value : fail(field, 'expected an object');
}
function optionalObject(value: unknown, field: string, fail: Fail): Raw | undefined {
  return value === undefined ? undefined : requireRaw(value, field, fail);
}
function optionalArray(value: unknown, field: string, fail: Fail): unknown[] | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value : fail(field, 'expected an array');
}
function requireString(value: unknown, field: string, fail: Fail): string {
  return typeof value === 'string' ? value : fail(field, `expected a string, got ${JSON.stringify(value) ?? 'nothing'}`);
}
function optionalString(value: unknown, field: string, fail: Fail): string | undefined {
  return value === undefined ? undefined : requireString(value, field, fail);
}
function optionalBoolean(value: unknown, field: string, fail: Fail): boolean | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'boolean' ? value : fail(field, 'expected true or false');
}
function optionalNumber(value: unknown, field: string, fail: Fail, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(field, 'expected a number');
  if ((value as number) < min || (value as number) > max) fail(field, `expected a number from ${min} to ${max}, got ${value}`);
  return value as number;
}
