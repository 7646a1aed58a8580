import type { Command } from './commander.js';

/** `gateway logs`: the request log, newest last; `--follow` goes on printing what servers append. */
export function registerLogsCommand(program: Command): void {
  program
    .command('logs')
    .description('the request log, newest last (no server needed)')
    .option('--since <when>', 'only requests from then on: 24h, 7d, 90m, or a date (2026-11-01)')
    .option('--follow', 'keep printing new requests as they come (from a server in this terminal or another)')
    .option('--config <file>', 'the config file serve uses, for its store (default: $SWITCHYARD_HOME/config.json)')
    .option('--json', 'print one entry per line as JSON')
    .action(async (options: { since?: string; config?: string; follow?: boolean; json?: boolean }) => {
      const { runLogs } = await import('./log-cli-actions.js');
      process.exitCode = await runLogs(options);
    });
}
