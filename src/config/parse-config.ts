import * as v from 'valibot';
import type { Protocol } from '../core/protocol.js';
import type { ProtocolDescriptor } from '../protocols/protocol-descriptor.js';
import { BUILT_IN_PROTOCOLS } from '../protocols/registry.js';
import { ConfigError } from './config-error.js';
import { describeIssue, formatPath, innermost } from './describe-issue.js';
import { resolveEnvReference, type Fail } from './env-reference.js';
import { parseStore } from './parse-store.js';
import {
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_TIMEOUT_MS,
  type GatewayConfig,
  type KeyConfig,
  type ProviderConfig,
  type StoreConfig,
} from './config-types.js';
import { ENVIRONMENT_PRESETS, PROVIDER_PRESETS } from './presets.js';
import { parseRouting, readApiKeys, readModelEntries } from './parse-routing.js';
import {
  configFileSchema,
  keyFileSchema,
  providerFileSchema,
  recoveriesFileSchema,
  serverFileSchema,
  type ConfigFile,
  type ProviderFile,
} from './config-schema.js';

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
  const checked = v.safeParse(configFileSchema, input === undefined ? {} : input);
  if (!checked.success) {
    const issue = innermost(checked.issues[0], []);
    if (issue.path.length === 0) return fail(undefined, 'expected a JSON object at the top level');
    if (issue.type === 'strict_object' && issue.expected === 'never') {
      return fail(formatPath(issue.path), `unknown setting (known: ${knownSettings(issue.path.slice(0, -1)).join(', ')})`);
    }
    return fail(formatPath(issue.path), describeIssue(issue));
  }
  const raw: ConfigFile = checked.output;

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
    return { key, user: entry.user, admin: entry.admin ?? false };
  });

  const defaultModels: Partial<Record<Protocol, string>> = {};
  for (const [key, model] of Object.entries(raw.defaultModels ?? {})) {
    const protocol = protocols.find((entry) => entry.defaultModelKey === key);
    if (protocol === undefined) fail(`defaultModels.${key}`, `expected one of ${protocols.map((entry) => entry.defaultModelKey).join(', ')}`);
    defaultModels[protocol!.id] = model;
  }

  const routing = parseRouting(raw, providers, protocols.map((protocol) => protocol.id), fail);
  const server = raw.server ?? {};
  const recoveries = raw.recoveries ?? {};
  return {
    providers,
    keys,
    aliases: routing.aliases,
    routes: routing.routes,
    countsInputTokens: routing.countsInputTokens,
    retry: routing.retry,
    cooldown: routing.cooldown,
    defaultModels,
    server: {
      host: server.host ?? DEFAULT_HOST,
      port: server.port ?? DEFAULT_PORT,
      bodyLimitBytes: Math.round((server.bodyLimitMb ?? DEFAULT_BODY_LIMIT_BYTES / 2 ** 20) * 2 ** 20),
      shutdownGraceMs: server.shutdownGraceMs ?? 10_000,
      allowedHosts: server.allowedHosts ?? [],
    },
    recoveries: {
      onDisconnect: recoveries.onDisconnect ?? 'drain',
      drainTimeoutMs: recoveries.drainTimeoutMs ?? 10 * 60 * 1000,
      maxRecords: recoveries.maxRecords ?? 1000,
      maxAgeMs: (recoveries.maxAgeDays ?? 7) * DAY_MS,
      resume: recoveries.resume ?? true,
      resumeWindowMs: recoveries.resumeWindowMs ?? 10 * 60 * 1000,
    },
    store: parseStore(raw.store, env, fail),
    inspector: { keep: raw.inspector?.keep ?? 200, bodyMaxMb: raw.inspector?.bodyMaxMb ?? 256 },
    log: {
      enabled: raw.log?.enabled ?? true,
      maxAgeMs: (raw.log?.maxDays ?? 30) * DAY_MS,
      maxBytes: Math.round((raw.log?.maxMb ?? 200) * 2 ** 20),
      bodies: raw.log?.bodies ?? false,
      bodyMaxBytes: (raw.log?.bodyMaxKb ?? 1024) * 1024,
    },
    prices: raw.prices ?? {},
    ...(file !== undefined && { path: file }),
  };
}

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
  const { apiKey, apiKeys } = readApiKeys(raw.apiKey, (value, keyField) => resolveEnvReference(value, env, keyField, fail), `${field}.apiKey`);
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
    ...(apiKeys && { apiKeys }),
    ...readModelEntries(raw.models),
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
    ...readModelEntries(raw.models),
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

/** The settings the schema knows in the object at `path`, for the message about one it does not. */
function knownSettings(path: readonly PropertyKey[]): string[] {
  const objects: Record<string, { entries: Record<string, unknown> }> = {
    providers: providerFileSchema,
    keys: keyFileSchema,
    server: serverFileSchema,
    recoveries: recoveriesFileSchema,
  };
  const object = path.length === 0 ? configFileSchema : objects[String(path[0])];
  return Object.keys((object ?? configFileSchema).entries).filter((key) => key !== '$schema');
}

