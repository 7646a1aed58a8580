import { spawn } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import { constants } from 'node:os';
import { delimiter, join } from 'node:path';
import chalk from 'chalk';
import { ConfigError } from '../config/config-error.js';
import type { GatewayConfig } from '../config/config-types.js';
import { loadConfig } from '../config/load-config.js';
import { defaultConfigPath, resolveSwitchyardHome } from '../config/paths.js';
import { AGENTS, agentKey, defaultAgentModel, type AgentId } from './agent-definitions.js';
import { leaseGateway } from './background-gateway.js';

export interface AgentOptions {
  model?: string;
  config?: string;
}

/** The signals a launcher passes to its agent (SIGINT: see below). */
const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

/**
 * `gateway <agent> [--model M] [-- args]`: the agent in this terminal, on the gateway running here
 * or on one started in the background for its lifetime. Returns the agent's exit code; an agent
 * killed by a signal kills the launcher with the same signal once the gateway is released.
 */
export async function runAgent(id: AgentId, options: AgentOptions, agentArgs: string[]): Promise<number> {
  const agent = AGENTS[id];
  const binary = findExecutable(agent.binary);
  if (!binary) {
    console.error(`${agent.title} is not installed (no '${agent.binary}' on PATH): install it with \`npm install -g ${agent.npmPackage}\`.`);
    return 127;
  }
  const home = resolveSwitchyardHome();
  const loaded = await loadAgentConfig(home, options.config);
  if (!loaded) return 1;
  let lease;
  try {
    lease = await leaseGateway({ home, config: loaded, configPath: options.config, cliScript: process.argv[1] });
  } catch (error) {
    console.error(chalk.red(`Could not start a gateway for ${agent.title}: ${(error as Error).message}`));
    return 1;
  }
  if (lease.started && process.stderr.isTTY) console.error(chalk.dim(`Switchyard started in the background on ${lease.url} (until the last agent using it exits).`));
  const model = options.model ?? (id === 'opencode' ? defaultAgentModel(loaded) : undefined);
  const launch = agent.launch({ url: lease.url, key: agentKey(loaded), model });
  const env = Object.assign({}, process.env);
  for (const [name, value] of Object.entries(launch.env)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const child = spawn(binary, [...launch.args, ...agentArgs], { stdio: 'inherit', env });
  // On a terminal, Ctrl+C reaches the agent directly (it shares our process group) and it decides
  // what a Ctrl+C means: passing it on as well would make one press count twice.
  const forwardInterrupt = !process.stdin.isTTY;
  const handlers = FORWARDED_SIGNALS.map((signal) => {
    const handler = () => {
      if (signal !== 'SIGINT' || forwardInterrupt) child.kill(signal);
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  await lease.release().catch((error: unknown) => console.error(chalk.yellow(`Could not release the background gateway: ${(error as Error).message}`)));
  for (const [signal, handler] of handlers) process.off(signal, handler);
  if (exit.error) {
    console.error(chalk.red(`Could not run ${agent.binary}: ${exit.error.message}`));
    return 1;
  }
  if (exit.signal) {
    process.kill(process.pid, exit.signal);
    // Still here when a module keeps a handler for it (proper-lockfile's exit hook): a shell's code.
    return 128 + (constants.signals[exit.signal] ?? 0);
  }
  return exit.code ?? 1;
}

/** The config the gateway would run with; a config error is printed, once. */
export async function loadAgentConfig(home: string, path: string | undefined): Promise<GatewayConfig | undefined> {
  try {
    return await loadConfig({ path: path ?? defaultConfigPath(home), explicit: path !== undefined });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(chalk.red(`Invalid config: ${error.message}`));
      return undefined;
    }
    throw error;
  }
}

function findExecutable(name: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (!folder) continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}
