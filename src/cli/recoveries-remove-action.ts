import { RECOVERIES_EXIT, type RecoveriesCliIo } from './recoveries-cli-io.js';
import { withCliStore, writeUsageError } from './recoveries-cli-store.js';
import { askConfirmation, withSpinner } from './recoveries-terminal.js';

/**
 * `recoveries rm <id>` and `recoveries rm --all [--dry-run] [--yes]`. Deleting everything asks
 * first on a terminal; without one (a script, a pipe) it refuses unless --yes says so up front,
 * because nobody would see the question.
 */
export async function removeRecoveriesCommand(
  id: string | undefined,
  options: { all?: boolean; dryRun?: boolean; yes?: boolean; user?: string },
  io: RecoveriesCliIo,
): Promise<number> {
  if (id !== undefined && options.all) return writeUsageError(io, 'give either a record id or --all, not both');
  if (id === undefined && !options.all) return writeUsageError(io, 'give a record id, or --all to delete every record');
  if (id !== undefined && (options.dryRun || options.yes)) return writeUsageError(io, '--dry-run and --yes go with --all');
  const owner = options.user === undefined ? '' : ` of ${options.user}`;

  if (id !== undefined) {
    return withCliStore(io, async (store) => {
      if (await store.remove(id, options.user)) {
        io.stdout.write(`Deleted ${id}.\n`);
        return RECOVERIES_EXIT.ok;
      }
      io.stderr.write(`No recovery record ${id}${owner}.\n`);
      return RECOVERIES_EXIT.notFound;
    });
  }

  if (!options.dryRun && !options.yes && !io.stdin.isTTY) {
    return writeUsageError(io, 'rm --all needs --yes when no terminal can confirm it');
  }
  return withCliStore(io, async (store) => {
    const count = await store.removeAll(options.user, { dryRun: true });
    if (options.dryRun) {
      io.stdout.write(`Would delete ${count} recovery record(s)${owner}.\n`);
      return RECOVERIES_EXIT.ok;
    }
    if (count === 0) {
      io.stdout.write(`No recovery records${owner} to delete.\n`);
      return RECOVERIES_EXIT.ok;
    }
    if (!options.yes && !(await askConfirmation(io, `Delete ${count} recovery record(s)${owner}?`))) {
      io.stderr.write('Nothing deleted.\n');
      return RECOVERIES_EXIT.notFound;
    }
    // The count may have changed since the question: report what was actually deleted.
    const deleted = await withSpinner(io, `Deleting ${count} recovery record(s)`, () => store.removeAll(options.user));
    io.stdout.write(`Deleted ${deleted} recovery record(s)${owner}.\n`);
    return RECOVERIES_EXIT.ok;
  });
}
