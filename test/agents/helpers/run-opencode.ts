import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAgent, type AgentRun, type AgentSandbox } from './agent-sandbox.js';

/**
 * What keeps opencode on this machine (docs/agents.md): no models.dev catalog fetch, no update
 * check, no default plugins (installed from npm at startup), no language-server downloads, no
 * sharing; and npm offline, because at every start opencode installs its plugin SDK
 * (`@opencode-ai/plugin`) into its config folder from registry.npmjs.org (offline, the install
 * fails at once, logged as a warning, and the run goes on).
 */
export const OPENCODE_QUIET_ENV = {
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  OPENCODE_DISABLE_SHARE: '1',
  npm_config_offline: 'true',
};

/**
 * The opencode.json of the recipe: a provider of its own on Chat Completions (the
 * `@ai-sdk/openai-compatible` package opencode ships with) whose one model is `model`, for the
 * main and the small (titles) model, the key read from SWITCHYARD_API_KEY.
 */
export function opencodeConfig(baseUrl: string, model: string): Record<string, unknown> {
  return {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      switchyard: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Switchyard',
        options: { baseURL: `${baseUrl}/v1`, apiKey: '{env:SWITCHYARD_API_KEY}' },
        models: { [model]: { name: model } },
      },
    },
    model: `switchyard/${model}`,
    small_model: `switchyard/${model}`,
    autoupdate: false,
    share: 'disabled',
  };
}

/** `opencode run` against the gateway, its config, data and cache folders in the sandbox HOME. */
export function runOpencode(sandbox: AgentSandbox, baseUrl: string, prompt: string, model: string, timeoutMs: number): Promise<AgentRun> {
  const configFolder = join(sandbox.env.XDG_CONFIG_HOME, 'opencode');
  mkdirSync(configFolder, { recursive: true });
  writeFileSync(join(configFolder, 'opencode.json'), JSON.stringify(opencodeConfig(baseUrl, model), null, 2));
  const env = Object.assign({}, sandbox.env, OPENCODE_QUIET_ENV, { SWITCHYARD_API_KEY: 'sk-agent-opencode' });
  return runAgent('opencode', ['run', prompt], { cwd: sandbox.workdir, env, timeoutMs });
}
