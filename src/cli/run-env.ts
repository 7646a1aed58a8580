import { resolveSwitchyardHome } from '../config/paths.js';
import { AGENT_IDS, AGENTS, defaultAgentModel, type AgentId, type AgentLaunch } from './agent-definitions.js';
import { findRunningGateway, configuredUrl } from './find-gateway.js';
import { loadAgentConfig, type AgentOptions } from './run-agent.js';

/** Stands for the key while the lines are built; rendered as a reference to $SWITCHYARD_API_KEY. */
const KEY_PLACEHOLDER = '@@SWITCHYARD_API_KEY@@';

/** `gateway env <agent>`: lines for bash and zsh that point the agent at the gateway. */
export async function runEnv(agent: string, options: AgentOptions): Promise<number> {
  if (!(AGENT_IDS as readonly string[]).includes(agent)) {
    console.error(`Unknown agent '${agent}': expected one of ${AGENT_IDS.join(', ')}.`);
    return 2;
  }
  const home = resolveSwitchyardHome();
  const config = await loadAgentConfig(home, options.config);
  if (!config) return 1;
  const url = (await findRunningGateway(home, config))?.url ?? configuredUrl(config);
  const id = agent as AgentId;
  const model = options.model ?? (id === 'opencode' ? defaultAgentModel(config) : undefined);
  const launch = AGENTS[id].launch({ url, key: KEY_PLACEHOLDER, model });
  process.stdout.write(renderShellLines(AGENTS[id].binary, launch));
  return 0;
}

/**
 * Values in single quotes (nothing in them is expanded, in bash or zsh); the key is never printed:
 * it is read from $SWITCHYARD_API_KEY when the lines are evaluated (any key does in local mode).
 * Arguments become a shell function of the agent's name that adds them.
 */
function renderShellLines(binary: string, launch: AgentLaunch): string {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(launch.env)) {
    lines.push(value === undefined ? `unset ${name}` : `export ${name}=${quote(value)}`);
  }
  if (launch.args.length > 0) lines.push(`${binary}() { command ${binary} ${launch.args.map(quote).join(' ')} "$@"; }`);
  return `${lines.join('\n')}\n`;
}

function quote(value: string): string {
  const quoted = `'${value.replaceAll("'", `'\\''`)}'`;
  return quoted.replaceAll(KEY_PLACEHOLDER, `'"\${SWITCHYARD_API_KEY:-switchyard}"'`);
}
