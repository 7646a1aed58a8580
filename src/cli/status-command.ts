import type { Command } from './commander.js';

/** `gateway status [--json]`: whether a gateway runs here; exit code 0 either way. */
export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('Whether a gateway runs here: its address, version, uptime, requests in flight, recoveries draining.')
    .option('--json', 'print { running, url, version, uptime_s, in_flight, draining }')
    .option('--config <file>', 'config file (default: $SWITCHYARD_HOME/config.json)')
    .action(async (options: { json?: boolean; config?: string }) => {
      const { runStatus } = await import('./run-status.js');
      process.exitCode = await runStatus(options);
    });
}
