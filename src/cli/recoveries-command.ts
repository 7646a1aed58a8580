import { Option, type Command, type CommanderError } from './commander.js';
import { createProcessCliIo, RECOVERIES_EXIT, type RecoveriesCliIo } from './recoveries-cli-io.js';

/**
 * `gateway recoveries ls | get | rm | lookup`: the recoveries store without a server. This file
 * only declares the commands; the work (store, lowdb, chalk, ora) is imported inside each action
 * so `gateway --help` and the other commands do not load it.
 *
 * Exit codes: 0 ok, 1 not found (get/rm of a missing id, lookup without a match, a declined
 * confirmation) or a store failure (a clear message naming the file), 2 usage error (commander's
 * own errors included, which commander would report as 1).
 */
export function registerRecoveriesCommand(program: Command, ioOverrides: Partial<RecoveriesCliIo> = {}): void {
  const io = createProcessCliIo(ioOverrides);
  const recoveries = program
    .command('recoveries')
    .description('list, fetch, look up and delete the stored records of interrupted generations')
    .option('--config <file>', 'the config file serve uses, for its store (default: $SWITCHYARD_HOME/config.json)')
    // Set before the subcommands are added: commander copies both settings into each of them.
    .exitOverride((error) => io.exit(mapCommanderExitCode(error)));
  if (ioOverrides.stdout || ioOverrides.stderr) {
    recoveries.configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: (text) => void io.stderr.write(text) });
  }
  const userOption = (): Option => new Option('--user <user>', "only this user's records");
  const run = (work: () => Promise<number>) => async () => {
    // Given before or after the subcommand, as serve takes it.
    io.configPath = recoveries.opts<{ config?: string }>().config;
    const code = await work();
    if (code !== RECOVERIES_EXIT.ok) io.setExitCode(code);
  };

  recoveries
    .command('ls')
    .description('list the stored records, newest first')
    .option('--json', 'print {count, items} as JSON')
    .addOption(userOption())
    .action(async (options: { json?: boolean; user?: string }) => {
      const { listRecoveriesCommand } = await import('./recoveries-show-actions.js');
      await run(() => listRecoveriesCommand(options, io))();
    });

  recoveries
    .command('get')
    .description('show one record')
    .argument('<id>', 'the request id (the x-request-id header the client received)')
    .addOption(new Option('--json', 'print the whole record as JSON').conflicts(['request', 'response']))
    .addOption(new Option('--request', 'print the original request body').conflicts(['response']))
    .option('--response', 'print the stored response body')
    .addOption(userOption())
    .action(async (id: string, options: { json?: boolean; request?: boolean; response?: boolean; user?: string }) => {
      const { getRecoveryCommand } = await import('./recoveries-show-actions.js');
      await run(() => getRecoveryCommand(id, options, io))();
    });

  recoveries
    .command('rm')
    .description('delete one record, or all of them with --all')
    .argument('[id]', 'the request id')
    .option('--all', 'delete every record (of --user, when given)')
    .option('--dry-run', 'with --all: count only, delete nothing')
    .option('-y, --yes', 'with --all: do not ask for confirmation')
    .addOption(userOption())
    .action(async (id: string | undefined, options: { all?: boolean; dryRun?: boolean; yes?: boolean; user?: string }) => {
      const { removeRecoveriesCommand } = await import('./recoveries-remove-action.js');
      await run(() => removeRecoveriesCommand(id, options, io))();
    });

  recoveries
    .command('lookup')
    .description('find the records of an original request body (a file, or - for stdin)')
    .argument('<file>', 'the request body JSON, or - to read stdin')
    .option('--json', 'print {hash, items} as JSON')
    .addOption(userOption())
    .action(async (file: string, options: { json?: boolean; user?: string }) => {
      const { lookupRecoveriesCommand } = await import('./recoveries-show-actions.js');
      await run(() => lookupRecoveriesCommand(file, options, io))();
    });
}

/** commander exits 1 on usage errors; ours is 2. Help and version asked for are 0. */
export function mapCommanderExitCode(error: CommanderError): number {
  if (error.exitCode === 0) return RECOVERIES_EXIT.ok;
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return RECOVERIES_EXIT.ok;
  return RECOVERIES_EXIT.usage;
}
