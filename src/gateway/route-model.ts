import { compileGlob } from '../config/compile-glob.js';
import type { GatewayConfig, ProviderConfig } from '../config/config-types.js';
import { GatewayError } from '../core/gateway-error.js';
import type { Protocol } from '../core/protocol.js';

export interface ResolvedModel {
  provider: ProviderConfig;
  /** The model id the upstream knows. */
  model: string;
}

type Listed = (provider: ProviderConfig) => readonly string[];

/**
 * A model name → the targets that may serve it, in order: a route's `to` when one matched, else
 * `provider/model`, then aliases (exact, then globs like `claude-*`; a list is a fallback chain,
 * and an alias may name other aliases), then the first provider (config order) that lists the
 * model, then the client protocol's default model. `listed` gives each provider's known models
 * (config + discovered).
 */
export function resolveTargets(name: string, config: GatewayConfig, listed: Listed, inbound: Protocol, routed?: readonly string[]): ResolvedModel[] {
  if (routed !== undefined) {
    const targets = expandTargets(routed, config, listed);
    if (targets.length > 0) return targets;
    throw new GatewayError('not_found', `The route for '${name}' leads to ${routed.join(', ')}, which no provider serves. Check "routes" in the config.`, {
      detailCode: 'model_not_found',
      param: 'model',
    });
  }
  const explicit = resolveExplicit(name, config);
  if (explicit) return [explicit];
  // Aliases come before the providers' lists: `claude-*` must be able to send Claude Code
  // elsewhere even when a configured Anthropic provider lists the model it asks for.
  const alias = findAlias(name, config.aliases);
  if (alias !== undefined) {
    const targets = expandTargets(alias, config, listed, name);
    if (targets.length > 0) return targets;
    throw new GatewayError('not_found', `The model '${name}' is an alias of '${alias.join(', ')}', which no provider serves. Check "aliases" in the config.`, {
      detailCode: 'model_not_found',
      param: 'model',
    });
  }
  const listedBy = resolveListed(name, config, listed);
  if (listedBy) return [listedBy];
  const fallback = config.defaultModels[inbound];
  if (fallback !== undefined) {
    const target = resolveDirect(fallback, config, listed);
    if (target) return [target];
  }
  throw new GatewayError(
    'not_found',
    `The model '${name}' does not exist or no provider serves it. List the available models with GET /v1/models, or name one as provider/model.`,
    { detailCode: 'model_not_found', param: 'model' },
  );
}

/**
 * Alias and route targets, in order, each alias they name expanded in place; a target no provider
 * serves (a model not discovered yet) is left out. The config refuses cycles; `depth` guards anyway.
 */
function expandTargets(entries: readonly string[], config: GatewayConfig, listed: Listed, self?: string, depth = 0): ResolvedModel[] {
  // The common case, one target that is no alias, makes no more than today's one array.
  if (entries.length === 1 && (entries[0] === self || !Object.hasOwn(config.aliases, entries[0]))) {
    const target = resolveDirect(entries[0], config, listed);
    return target ? [target] : [];
  }
  const targets: ResolvedModel[] = [];
  for (const entry of entries) {
    if (entry !== self && Object.hasOwn(config.aliases, entry) && depth < 8) {
      for (const target of expandTargets(config.aliases[entry], config, listed, entry, depth + 1)) add(targets, target);
      continue;
    }
    const target = resolveDirect(entry, config, listed);
    if (target) add(targets, target);
  }
  return targets;
}

/** A target named twice (an alias listed inside another) is tried once. */
function add(targets: ResolvedModel[], target: ResolvedModel): void {
  if (!targets.some((known) => known.provider === target.provider && known.model === target.model)) targets.push(target);
}

/** An alias target or a default model: `provider/model`, or a name a provider lists. */
function resolveDirect(name: string, config: GatewayConfig, listed: Listed): ResolvedModel | undefined {
  return resolveExplicit(name, config) ?? resolveListed(name, config, listed);
}

function resolveExplicit(name: string, config: GatewayConfig): ResolvedModel | undefined {
  const slash = name.indexOf('/');
  if (slash <= 0 || slash === name.length - 1) return undefined;
  // `openai/gpt-4o` may also be an OpenRouter model id; a provider of that id wins.
  const provider = config.providers.find((entry) => entry.id === name.slice(0, slash));
  return provider && { provider, model: name.slice(slash + 1) };
}

function resolveListed(name: string, config: GatewayConfig, listed: Listed): ResolvedModel | undefined {
  const provider = config.providers.find((entry) => listed(entry).includes(name));
  return provider && { provider, model: name };
}

/** Glob aliases compiled once per config (a config is replaced whole when it changes). */
const compiledGlobs = new WeakMap<Record<string, readonly string[]>, Array<[RegExp, readonly string[]]>>();

function findAlias(name: string, aliases: Record<string, readonly string[]>): readonly string[] | undefined {
  if (Object.hasOwn(aliases, name)) return aliases[name];
  let globs = compiledGlobs.get(aliases);
  if (globs === undefined) {
    globs = Object.entries(aliases)
      .filter(([pattern]) => pattern.includes('*') || pattern.includes('?'))
      .map(([pattern, targets]): [RegExp, readonly string[]] => [compileGlob(pattern), targets]);
    compiledGlobs.set(aliases, globs);
  }
  for (const [pattern, targets] of globs) if (pattern.test(name)) return targets;
  return undefined;
}
