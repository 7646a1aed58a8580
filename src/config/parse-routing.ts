import { compileGlob, globProblem } from './compile-glob.js';
import {
  DEFAULT_COOLDOWN,
  DEFAULT_RETRY,
  type CooldownConfig,
  type ModelLimits,
  type ProviderConfig,
  type RetryConfig,
  type RouteRule,
  type RouteWhen,
} from './config-types.js';
import type { CooldownFile, ModelEntryFile, RetryFile, RouteFile } from './routing-schema.js';

type Fail = (field: string | undefined, detail: string) => never;

/** `models` entries → the ids, and the limits of those written as objects. */
export function readModelEntries(entries: readonly ModelEntryFile[] | undefined): { models: string[]; limits?: Record<string, ModelLimits> } {
  const models: string[] = [];
  let limits: Record<string, ModelLimits> | undefined;
  for (const entry of entries ?? []) {
    if (typeof entry === 'string') {
      models.push(entry);
      continue;
    }
    models.push(entry.id);
    const limit: ModelLimits = {};
    if (entry.maxOutputTokens !== undefined) limit.maxOutputTokens = entry.maxOutputTokens;
    if (entry.contextTokens !== undefined) limit.contextTokens = entry.contextTokens;
    limits ??= {};
    limits[entry.id] = limit;
  }
  return limits ? { models, limits } : { models };
}

/** `apiKey` as one key or a pool, each resolved (`$NAME`): the first key, and the pool when there are two or more. */
export function readApiKeys(raw: string | readonly string[] | undefined, resolve: (value: string, field: string) => string, field: string): { apiKey?: string; apiKeys?: string[] } {
  if (raw === undefined) return {};
  if (typeof raw === 'string') return { apiKey: resolve(raw, field) };
  const keys = raw.map((value, index) => resolve(value, `${field}[${index}]`));
  return keys.length > 1 ? { apiKey: keys[0], apiKeys: keys } : { apiKey: keys[0] };
}

export function mergeRetry(base: RetryConfig, raw: RetryFile | undefined): RetryConfig {
  if (raw === undefined) return base;
  return { attempts: raw.attempts ?? base.attempts, onStatus: raw.onStatus ?? base.onStatus, maxWaitMs: raw.maxWaitMs ?? base.maxWaitMs };
}

export function mergeCooldown(base: CooldownConfig, raw: CooldownFile | undefined): CooldownConfig {
  if (raw === undefined) return base;
  return { failures: raw.failures ?? base.failures, ms: raw.ms ?? base.ms };
}

export interface RoutingFile {
  aliases?: Record<string, string | string[]>;
  routes?: RouteFile[];
  retry?: RetryFile;
  cooldown?: CooldownFile;
  providers?: Record<string, { retry?: RetryFile; cooldown?: CooldownFile } | false>;
}

export interface Routing {
  aliases: Record<string, readonly string[]>;
  routes: RouteRule[];
  countsInputTokens: boolean;
  retry: RetryConfig;
  cooldown: CooldownConfig;
}

/**
 * The routing settings, checked against the providers: every target names a known provider or
 * a model name, aliases form no cycle, globs are ones we understand. Each provider's own `retry`
 * and `cooldown` are merged over the top-level ones (set on the provider).
 */
export function parseRouting(raw: RoutingFile, providers: ProviderConfig[], protocolIds: readonly string[], fail: Fail): Routing {
  const retry = mergeRetry(DEFAULT_RETRY, raw.retry);
  const cooldown = mergeCooldown(DEFAULT_COOLDOWN, raw.cooldown);
  for (const provider of providers) {
    const own = raw.providers?.[provider.id];
    if (!own) continue;
    if (own.retry) provider.retry = mergeRetry(retry, own.retry);
    if (own.cooldown) provider.cooldown = mergeCooldown(cooldown, own.cooldown);
  }

  const aliases: Record<string, readonly string[]> = {};
  for (const [name, targets] of Object.entries(raw.aliases ?? {})) {
    if (name.includes('*') || name.includes('?')) {
      const problem = globProblem(name);
      if (problem) fail(`aliases.${name}`, problem);
    }
    aliases[name] = typeof targets === 'string' ? [targets] : targets;
  }
  const checkTarget = (target: string, field: string): void => {
    if (Object.hasOwn(aliases, target)) return;
    const slash = target.indexOf('/');
    if (slash <= 0) return;
    const providerId = target.slice(0, slash);
    if (providers.some((provider) => provider.id === providerId || provider.models.includes(target))) return;
    fail(field, `'${target}' names the provider '${providerId}', which is not configured (known: ${providers.map((provider) => provider.id).join(', ')})`);
  };
  for (const [name, targets] of Object.entries(aliases)) targets.forEach((target, index) => checkTarget(target, targets.length > 1 ? `aliases.${name}[${index}]` : `aliases.${name}`));
  for (const name of Object.keys(aliases)) {
    const cycle = findCycle(name, aliases, []);
    if (cycle) fail(`aliases.${name}`, `the aliases form a cycle: ${cycle.join(' → ')}`);
  }

  let countsInputTokens = providers.some((provider) => provider.limits && Object.values(provider.limits).some((limit) => limit.contextTokens !== undefined));
  const routes = (raw.routes ?? []).map((route, index): RouteRule => {
    const field = `routes[${index}]`;
    const to = typeof route.to === 'string' ? [route.to] : route.to;
    to.forEach((target, position) => checkTarget(target, to.length > 1 ? `${field}.to[${position}]` : `${field}.to`));
    const when: RouteWhen = {};
    const raw = route.when;
    if (raw.model !== undefined) when.model = readGlob(raw.model, `${field}.when.model`, fail);
    if (raw.protocol !== undefined) {
      if (!protocolIds.includes(raw.protocol)) fail(`${field}.when.protocol`, `expected one of ${protocolIds.join(', ')}, got '${raw.protocol}'`);
      when.protocol = raw.protocol;
    }
    if (raw.minInputTokens !== undefined) {
      when.minInputTokens = raw.minInputTokens;
      countsInputTokens = true;
    }
    if (raw.thinking !== undefined) when.thinking = raw.thinking;
    if (raw.images !== undefined) when.images = raw.images;
    if (raw.tools !== undefined) when.tools = raw.tools;
    if (raw.header !== undefined) {
      const header: Record<string, RegExp | boolean> = {};
      for (const [name, value] of Object.entries(raw.header)) {
        header[name.toLowerCase()] = typeof value === 'boolean' ? value : readGlob(value, `${field}.when.header.${name}`, fail);
      }
      when.header = header;
    }
    return { when, to };
  });
  return { aliases, routes, countsInputTokens, retry, cooldown };
}

function readGlob(pattern: string, field: string, fail: Fail): RegExp {
  const problem = globProblem(pattern);
  if (problem) fail(field, problem);
  return compileGlob(pattern);
}

/** The path back to `name` through exact alias references, if there is one. */
function findCycle(name: string, aliases: Record<string, readonly string[]>, path: string[]): string[] | undefined {
  if (path.includes(name)) return path[0] === name ? [...path, name] : undefined;
  const targets = aliases[name];
  if (targets === undefined) return undefined;
  for (const target of targets) {
    // An alias naming itself means the model of that name, not the alias again.
    if (target === name || !Object.hasOwn(aliases, target)) continue;
    const cycle = findCycle(target, aliases, [...path, name]);
    if (cycle) return cycle;
  }
  return undefined;
}
