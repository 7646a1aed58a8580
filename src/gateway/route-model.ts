import type { GatewayConfig, ProviderConfig } from '../config/config-types.js';
import { GatewayError } from '../core/gateway-error.js';
import type { Protocol } from '../core/protocol.js';

export interface ResolvedModel {
  provider: ProviderConfig;
  /** The model id the upstream knows. */
  model: string;
}

/**
 * A model name → provider and upstream model: `provider/model` first, then aliases (exact, then
 * globs like `claude-*`), then the first provider (config order) that lists the model, then the
 * client protocol's default model. `listed` gives each provider's known models (config + discovered).
 */
export function resolveModel(
  name: string,
  config: GatewayConfig,
  listed: (provider: ProviderConfig) => readonly string[],
  inbound: Protocol,
): ResolvedModel {
  const explicit = resolveExplicit(name, config);
  if (explicit) return explicit;
  // Aliases come before the providers' lists: `claude-*` must be able to send Claude Code
  // elsewhere even when a configured Anthropic provider lists the model it asks for.
  const alias = findAlias(name, config.aliases);
  if (alias !== undefined) {
    const target = resolveDirect(alias, config, listed);
    if (target) return target;
    throw new GatewayError('not_found', `The model '${name}' is an alias of '${alias}', which no provider serves. Check "aliases" in the config.`, {
      detailCode: 'model_not_found',
      param: 'model',
    });
  }
  const listedBy = resolveListed(name, config, listed);
  if (listedBy) return listedBy;
  const fallback = config.defaultModels[inbound];
  if (fallback !== undefined) {
    const target = resolveDirect(fallback, config, listed);
    if (target) return target;
  }
  throw new GatewayError(
    'not_found',
    `The model '${name}' does not exist or no provider serves it. List the available models with GET /v1/models, or name one as provider/model.`,
    { detailCode: 'model_not_found', param: 'model' },
  );
}

/** An alias target or a default model: `provider/model`, or a name a provider lists. */
function resolveDirect(name: string, config: GatewayConfig, listed: (provider: ProviderConfig) => readonly string[]): ResolvedModel | undefined {
  return resolveExplicit(name, config) ?? resolveListed(name, config, listed);
}

function resolveExplicit(name: string, config: GatewayConfig): ResolvedModel | undefined {
  const slash = name.indexOf('/');
  if (slash <= 0 || slash === name.length - 1) return undefined;
  // `openai/gpt-4o` may also be an OpenRouter model id; a provider of that id wins.
  const provider = config.providers.find((entry) => entry.id === name.slice(0, slash));
  return provider && { provider, model: name.slice(slash + 1) };
}

function resolveListed(name: string, config: GatewayConfig, listed: (provider: ProviderConfig) => readonly string[]): ResolvedModel | undefined {
  const provider = config.providers.find((entry) => listed(entry).includes(name));
  return provider && { provider, model: name };
}

function findAlias(name: string, aliases: Record<string, string>): string | undefined {
  if (Object.hasOwn(aliases, name)) return aliases[name];
  for (const [pattern, target] of Object.entries(aliases)) {
    if (pattern.includes('*') && globToRegExp(pattern).test(name)) return target;
  }
  return undefined;
}

function globToRegExp(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}
