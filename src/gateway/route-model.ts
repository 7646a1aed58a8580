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
  const direct = resolveDirect(name, config, listed);
  if (direct) return direct;
  const alias = findAlias(name, config.aliases);
  if (alias !== undefined) {
    const target = resolveDirect(alias, config, listed);
    if (target) return target;
    throw new GatewayError('not_found', `The model '${name}' is an alias of '${alias}', which no provider serves. Check "aliases" in the config.`, {
      detailCode: 'model_not_found',
      param: 'model',
    });
  }
  const fallback = config.defaultModels[inbound];
  if (fallback !== undefined) {
    const target = resolveDirect(fallback, config, listed);
    if (target) return target;
  }
  throw new GatewayError(
    'not_found',
    `The model '${name}' does not exist or no provider serves it. List the available models with GET /v1/models (or \`gateway models\`), or name one as provider/model.`,
    { detailCode: 'model_not_found', param: 'model' },
  );
}

function resolveDirect(name: string, config: GatewayConfig, listed: (provider: ProviderConfig) => readonly string[]): ResolvedModel | undefined {
  const slash = name.indexOf('/');
  if (slash > 0) {
    const provider = config.providers.find((entry) => entry.id === name.slice(0, slash));
    // `openai/gpt-4o` may also be an OpenRouter model id; a provider of that id wins.
    if (provider && slash < name.length - 1) return { provider, model: name.slice(slash + 1) };
  }
  for (const provider of config.providers) {
    if (listed(provider).includes(name)) return { provider, model: name };
  }
  return undefined;
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
