import type { z } from 'zod';
import type { Protocol } from '../core/protocol.js';
import type { ProtocolDescriptor } from '../protocols/protocol-descriptor.js';
import { BUILT_IN_PROTOCOLS } from '../protocols/registry.js';
import { ConfigError } from './config-error.js';
import {
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_TIMEOUT_MS,
  type GatewayConfig,
  type KeyConfig,
  type ProviderConfig,
} from './config-types.js';
import { ENVIRONMENT_PRESETS, PROVIDER_PRESETS } from './presets.js';
import { configFileSchema, keyFileSchema, providerFileSchema, type ConfigFile, type ProviderFile } from './config-schema.js';

/** What the config needs to know of a protocol. */
export type ConfigProtocol = Pick<ProtocolDescriptor, 'id' | 'defaultModelKey'>;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Raw config JSON (or nothing) + environment → validated config. Pure: the environment is passed
 * in. The shape is checked by the config's schema (`config-schema.ts`); what it cannot say (presets,
 * `$NAME` references, protocol ids) is resolved here. Every problem is a ConfigError naming the
 * file and the field.
 */
export function parseConfig(
  input: unknown,
  env: Record<string, string | undefined>,
  file?: string,
  protocols: readonly ConfigProtocol[] = BUILT_IN_PROTOCOLS,
): GatewayConfig {
  const fail = (field: string | undefined, detail: string): never => {
    throw new ConfigError(file, field, detail);
  };
  const checked = configFileSchema.safeParse(input === undefined ? {} : input);
  if (!checked.success) {
    const issue = innermost(checked.error.issues[0]);
    if (issue.path.length === 0 && issue.code === 'invalid_type') fail(undefined, 'expected a JSON object at the top level');
    if (issue.code === 'unrecognized_keys') {
      const field = formatPath([...issue.path, issue.keys[0]]);
      fail(field, `unknown setting (known: ${knownSettings(issue.path).join(', ')})`);
    }
    fail(formatPath(issue.path), describeIssue(issue));
  }
  const raw: ConfigFile = checked.data!;

  const providers: ProviderConfig[] = [];
  const rawProviders = raw.providers ?? {};
  let mockConfigured = false;
  for (const [id, value] of Object.entries(rawProviders)) {
    if (value === false) {
      if (id === 'mock') mockConfigured = true;
      continue;
    }
    const provider = parseProvider(id, value, env, fail, protocols);
    if (provider.type === 'mock') mockConfigured = true;
    providers.push(provider);
  }
  if (!mockConfigured) providers.push(createMockProvider('mock', {}));
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

  const keys: KeyConfig[] = (raw.keys ?? []).map((entry, index) => {
    const key = resolveEnvReference(entry.key, env, `keys[${index}].key`, fail);
    return { key, user: entry.user };
  });

  const defaultModels: Partial<Record<Protocol, string>> = {};
  for (const [key, model] of Object.entries(raw.defaultModels ?? {})) {
    const protocol = protocols.find((entry) => entry.defaultModelKey === key);
    if (protocol === undefined) fail(`defaultModels.${key}`, `expected one of ${protocols.map((entry) => entry.defaultModelKey).join(', ')}`);
    defaultModels[protocol!.id] = model;
  }

  const server = raw.server ?? {};
  const recoveries = raw.recoveries ?? {};
  return {
    providers,
    keys,
    aliases: raw.aliases ?? {},
    defaultModels,
    server: {
      host: server.host ?? DEFAULT_HOST,
      port: server.port ?? DEFAULT_PORT,
      bodyLimitBytes: Math.round((server.bodyLimitMb ?? DEFAULT_BODY_LIMIT_BYTES / 2 ** 20) * 2 ** 20),
      shutdownGraceMs: server.shutdownGraceMs ?? 10_000,
    },
    recoveries: {
      onDisconnect: recoveries.onDisconnect ?? 'drain',
      drainTimeoutMs: recoveries.drainTimeoutMs ?? 10 * 60 * 1000,
      maxRecords: recoveries.maxRecords ?? 1000,
      maxAgeMs: (recoveries.maxAgeDays ?? 7) * DAY_MS,
    },
    ...(file !== undefined && { path: file }),
  };
}

type Fail = (field: string | undefined, detail: string) => never;

function parseProvider(id: string, raw: ProviderFile, env: Record<string, string | undefined>, fail: Fail, protocols: readonly ConfigProtocol[]): ProviderConfig {
  const field = `providers.${id}`;
  const preset = raw.preset === undefined ? undefined : PROVIDER_PRESETS[raw.preset];
  const type = raw.type ?? preset?.type ?? (id === 'mock' ? 'mock' : undefined);
  const types = [...protocols.map((protocol) => protocol.id), 'mock'];
  if (type === undefined) fail(`${field}.type`, `missing: set "type" (${types.join(', ')}) or "preset"`);
  if (!types.includes(type!)) fail(`${field}.type`, `expected one of ${types.join(', ')}, got '${type}'`);
  if (type === 'mock') return createMockProvider(id, raw);

  const baseURL = raw.baseURL ?? preset?.baseURL;
  if (!baseURL) fail(`${field}.baseURL`, 'missing: the upstream base URL (OpenAI-style URLs include /v1)');
  try {
    const url = new URL(baseURL!);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
  } catch {
    fail(`${field}.baseURL`, `not an http(s) URL: '${baseURL}'`);
  }
  const apiKey = raw.apiKey === undefined ? undefined : resolveEnvReference(raw.apiKey, env, `${field}.apiKey`, fail);
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(raw.headers ?? {})) {
    headers[name.toLowerCase()] = resolveEnvReference(headerValue, env, `${field}.headers.${name}`, fail);
  }
  const onDisconnect = raw.onDisconnect ?? preset?.onDisconnect;
  return {
    id,
    type: type!,
    baseURL: baseURL!.replace(/\/+$/, ''),
    ...(apiKey && { apiKey }),
    models: raw.models ?? [],
    headers,
    discoverModels: raw.discoverModels ?? true,
    forwardClientKey: raw.forwardClientKey ?? false,
    timeoutMs: raw.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(onDisconnect !== undefined && { onDisconnect }),
  };
}

function createMockProvider(id: string, raw: ProviderFile): ProviderConfig {
  if (raw.enabled === false) return Object.assign(createMockProvider(id, {}), { models: [] });
  return {
    id,
    type: 'mock',
    baseURL: 'mock:',
    models: raw.models ?? [],
    headers: {},
    discoverModels: false,
    forwardClientKey: false,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    mock: {
      slowIntervalMs: raw.slowIntervalMs ?? 100,
      slowPieces: raw.slowPieces ?? 100,
      failStatus: raw.failStatus ?? 503,
    },
  };
}

/**
 * The issue to report: a provider is an object or `false`, and when it is neither the object's own
 * issue says what is wrong (not "invalid input").
 */
function innermost(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0 || issue.errors[0].length === 0) return issue;
  const inner = issue.errors[0][0];
  return innermost(Object.assign({}, inner, { path: [...issue.path, ...inner.path] }) as z.core.$ZodIssue);
}

/** A schema issue's path as the docs name fields: `providers.x.models`, `keys[0].user`. */
function formatPath(path: readonly PropertyKey[]): string {
  return path.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : `${index === 0 ? '' : '.'}${String(segment)}`)).join('');
}

const EXPECTED: Record<string, string> = { array: 'an array', object: 'an object', record: 'an object', string: 'a string', number: 'a number', int: 'a whole number', boolean: 'true or false' };

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${EXPECTED[issue.expected] ?? issue.expected}`;
    case 'too_big':
    case 'too_small':
      return `${issue.message.replace(/^Too (big|small): /, '')}`;
    case 'invalid_key':
      return issue.issues[0]?.message ?? issue.message;
    case 'invalid_value':
      return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    default:
      return issue.message;
  }
}

/** The settings the schema knows at `path`, for the message about one it does not. */
function knownSettings(path: readonly PropertyKey[]): string[] {
  const shapes: Record<string, { shape: Record<string, unknown> }> = {
    '': configFileSchema,
    providers: providerFileSchema,
    keys: keyFileSchema,
    server: configFileSchema.shape.server.unwrap(),
    recoveries: configFileSchema.shape.recoveries.unwrap(),
  };
  const known = Object.keys((shapes[String(path[0] ?? '')] ?? configFileSchema).shape);
  return known.filter((key) => key !== '$schema');
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
