import type { GatewayConfig } from '../config/config-types.js';

export type AgentId = 'claude' | 'codex' | 'gemini' | 'opencode' | 'qwen';

export const AGENT_IDS: readonly AgentId[] = ['claude', 'codex', 'gemini', 'opencode', 'qwen'];

/** Where an agent is pointed: the gateway, the key it sends, the model it asks for. */
export interface AgentTarget {
  /** The gateway's root URL, without a trailing slash. */
  url: string;
  key: string;
  /** `provider/model` or an alias; none: the agent's own names, routed by the config. */
  model: string | undefined;
}

/**
 * How an agent is pointed at the gateway without touching its own config files: variables to set
 * (`undefined`: to unset) and arguments put before the user's own.
 */
export interface AgentLaunch {
  env: Record<string, string | undefined>;
  args: string[];
}

export interface AgentDefinition {
  id: AgentId;
  /** Its name on the command line (`gateway <id>`). */
  title: string;
  /** The executable looked up on PATH. */
  binary: string;
  /** The npm package that installs it. */
  npmPackage: string;
  launch(target: AgentTarget): AgentLaunch;
}

export const AGENTS: Record<AgentId, AgentDefinition> = {
  claude: {
    id: 'claude',
    title: 'Claude Code',
    binary: 'claude',
    npmPackage: '@anthropic-ai/claude-code',
    launch: ({ url, key, model }) => ({
      env: Object.assign(
        {
          // Claude Code appends /v1/messages itself.
          ANTHROPIC_BASE_URL: url,
          // As a Bearer token: an ANTHROPIC_API_KEY would make the interactive agent ask whether to
          // trust it, and both at once make it warn of an auth conflict.
          ANTHROPIC_AUTH_TOKEN: key,
          ANTHROPIC_API_KEY: undefined,
        },
        model === undefined
          ? {}
          : {
              ANTHROPIC_MODEL: model,
              ANTHROPIC_DEFAULT_OPUS_MODEL: model,
              ANTHROPIC_DEFAULT_SONNET_MODEL: model,
              // The background model (titles, summaries): the newer name and the older one.
              ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
              ANTHROPIC_SMALL_FAST_MODEL: model,
            },
      ),
      args: [],
    }),
  },
  codex: {
    id: 'codex',
    title: 'Codex CLI',
    binary: 'codex',
    npmPackage: '@openai/codex',
    // `-c` overrides on the root command apply to every subcommand (`codex exec` included).
    launch: ({ url, key, model }) => ({
      env: { SWITCHYARD_API_KEY: key },
      args: [
        ...codexOverride('model_provider', 'switchyard'),
        ...codexOverride('model_providers.switchyard.name', 'Switchyard'),
        ...codexOverride('model_providers.switchyard.base_url', `${url}/v1`),
        ...codexOverride('model_providers.switchyard.wire_api', 'responses'),
        ...codexOverride('model_providers.switchyard.env_key', 'SWITCHYARD_API_KEY'),
        ...(model === undefined ? [] : codexOverride('model', model)),
      ],
    }),
  },
  gemini: {
    id: 'gemini',
    title: 'Gemini CLI',
    binary: 'gemini',
    npmPackage: '@google/gemini-cli',
    launch: ({ url, key, model }) => ({
      env: Object.assign(
        {
          // The SDK appends /v1beta itself.
          GOOGLE_GEMINI_BASE_URL: url,
          GEMINI_API_KEY: key,
          // Only when no auth type is saved in its settings (a saved Google login wins).
          GEMINI_DEFAULT_AUTH_TYPE: 'gemini-api-key',
        },
        model === undefined ? {} : { GEMINI_MODEL: model },
      ),
      args: [],
    }),
  },
  opencode: {
    id: 'opencode',
    title: 'opencode',
    binary: 'opencode',
    npmPackage: 'opencode-ai',
    launch: ({ url, key, model }) => {
      const name = model ?? 'default';
      // Merged over the user's own opencode.json: a provider of its own, on Chat Completions.
      const config = {
        provider: {
          switchyard: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Switchyard',
            options: { baseURL: `${url}/v1`, apiKey: key },
            models: { [name]: { name } },
          },
        },
        model: `switchyard/${name}`,
        small_model: `switchyard/${name}`,
      };
      return { env: { OPENCODE_CONFIG_CONTENT: JSON.stringify(config) }, args: [] };
    },
  },
  qwen: {
    id: 'qwen',
    title: 'Qwen Code',
    binary: 'qwen',
    npmPackage: '@qwen-code/qwen-code',
    launch: ({ url, key, model }) => ({
      env: Object.assign({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: key }, model === undefined ? {} : { OPENAI_MODEL: model }),
      // Whatever auth a user saved (Qwen OAuth), this run uses the OpenAI-compatible one.
      args: ['--auth-type', 'openai'],
    }),
  },
};

function codexOverride(path: string, value: string): string[] {
  // A TOML basic string: JSON's escapes are TOML's.
  return ['-c', `${path}=${JSON.stringify(value)}`];
}

/**
 * The model for agents that need one named (opencode): the config's default for Chat Completions
 * clients, else the first model a provider lists.
 */
export function defaultAgentModel(config: GatewayConfig): string | undefined {
  const chatDefault = config.defaultModels['openai-chat'];
  if (chatDefault) return chatDefault;
  const provider = config.providers.find((candidate) => candidate.models.length > 0);
  return provider ? `${provider.id}/${provider.models[0]}` : undefined;
}

/** The key a launched agent sends: `SWITCHYARD_API_KEY`, else the config's first key, else any (local mode). */
export function agentKey(config: GatewayConfig, env: NodeJS.ProcessEnv = process.env): string {
  return env.SWITCHYARD_API_KEY?.trim() || config.keys[0]?.key || 'switchyard';
}
