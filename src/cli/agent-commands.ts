import type { Command } from './commander.js';
import { AGENT_IDS, AGENTS, type AgentDefinition, type AgentId } from './agent-definitions.js';
import type { AgentOptions } from './run-agent.js';

/** `gateway claude|codex|gemini|opencode|qwen [--model M] [-- agent args...]` and `gateway env <agent>`. */
export function registerAgentCommands(program: Command): void {
  for (const id of AGENT_IDS) registerLauncher(program, AGENTS[id]);
  program
    .command('env')
    .description(`Print the shell lines that point an agent at the gateway, for starting it yourself: eval "$(gateway env claude)". Agents: ${AGENT_IDS.join(', ')}.`)
    .argument('<agent>', AGENT_IDS.join(' | '))
    .option('--model <model>', 'the model the agent uses (provider/model or an alias)')
    .option('--config <file>', 'config file (default: $SWITCHYARD_HOME/config.json)')
    .action(async (agent: string, options: AgentOptions) => {
      const { runEnv } = await import('./run-env.js');
      process.exitCode = await runEnv(agent, options);
    });
}

function registerLauncher(program: Command, agent: AgentDefinition): void {
  program
    .command(agent.id)
    .description(`Run ${agent.title} through the gateway (the one running here, or one started in the background until the agent exits). Arguments after -- go to ${agent.binary}.`)
    .option('--model <model>', `the model ${agent.title} uses, background model included (provider/model or an alias)`)
    .option('--config <file>', 'config file (default: $SWITCHYARD_HOME/config.json)')
    .argument('[args...]', `arguments for ${agent.binary}`)
    // Options the launcher does not know are the agent's (after `--`, all of them are).
    .allowUnknownOption()
    .action(async (args: string[], options: AgentOptions) => {
      const { runAgent } = await import('./run-agent.js');
      process.exitCode = await runAgent(agent.id as AgentId, options, args);
    });
}
