import { createRequire } from 'node:module';
import { Command, CommanderError } from './commander.js';
import { registerAgentCommands } from './agent-commands.js';
import { registerDoctorCommand } from './doctor-command.js';
import { registerLogsCommand } from './logs-command.js';
import { registerRecoveriesCommand } from './recoveries-command.js';
import { registerServeCommand } from './serve-command.js';
import { registerUsageCommand } from './usage-command.js';
import { registerStatusCommand } from './status-command.js';

/**
 * The `gateway` program. Commands load their heavy modules inside their actions, so `--help`
 * answers without loading the server.
 */
export function createProgram(): Command {
  const program = new Command('gateway')
    .description('Switchyard: a local LLM gateway. Any client protocol to any upstream, streamed, with recoveries of interrupted generations.')
    .version(packageVersion(), '-v, --version')
    .showHelpAfterError()
    .exitOverride();
  registerServeCommand(program);
  registerRecoveriesCommand(program);
  registerUsageCommand(program);
  registerLogsCommand(program);
  registerStatusCommand(program);
  registerDoctorCommand(program);
  registerAgentCommands(program);
  return program;
}

function packageVersion(): string {
  // dist/cli/main.js → the package's own package.json.
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}

export async function main(argv: string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not errors; usage mistakes exit 2.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
      return 2;
    }
    throw error;
  }
}

const exitCode = await main(process.argv);
if (exitCode !== 0 || process.exitCode) process.exitCode = exitCode || process.exitCode;
