import type { Command } from './commander.js';

/** `gateway doctor [--json]`: what would stop the gateway or an agent, before they find out; exit 1 on a failure. */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('Check the config, each provider (reachable, key accepted), the port, the store and log folders, and Node; exit code 1 when a check fails.')
    .option('--json', 'print { ok, checks: [{ name, status, message }] }')
    .option('--config <file>', 'config file (default: $SWITCHYARD_HOME/config.json)')
    .action(async (options: { json?: boolean; config?: string }) => {
      const { runDoctor } = await import('./run-doctor.js');
      process.exitCode = await runDoctor(options);
    });
}
