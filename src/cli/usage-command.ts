import { Option, type Command } from './commander.js';

/** `gateway usage`: requests, tokens and cost per group, from the request log (no server needed). */
export function registerUsageCommand(program: Command): void {
  program
    .command('usage')
    .description('requests, tokens and cost from the request log, per model, provider, user, protocol or day')
    .option('--since <when>', 'only requests from then on: 24h, 7d, 90m, or a date (2026-11-01)')
    .addOption(new Option('--by <group>', 'group by').choices(['model', 'provider', 'user', 'protocol', 'day']).default('model'))
    .option('--config <file>', 'the config file serve uses, for its store (default: $SWITCHYARD_HOME/config.json)')
    .option('--json', 'print { since, by, rows, total } as JSON')
    .action(async (options: { since?: string; config?: string; by: 'model' | 'provider' | 'user' | 'protocol' | 'day'; json?: boolean }) => {
      const { runUsage } = await import('./log-cli-actions.js');
      process.exitCode = await runUsage(options);
    });
}
