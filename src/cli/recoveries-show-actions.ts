import { readFile } from 'node:fs/promises';
import chalk from 'chalk';
import { hashRequestBody } from '../recoveries/hash-request-body.js';
import { RECOVERIES_EXIT, type RecoveriesCliIo } from './recoveries-cli-io.js';
import { withCliStore, writeUsageError } from './recoveries-cli-store.js';
import { formatJsonText, formatRecordDetails, formatRecoveriesTable } from './recoveries-format.js';
import { createCliColors, readAllText, withSpinner } from './recoveries-terminal.js';

/** `recoveries ls`, `get` and `lookup`: read-only, they never take the store lock. */

export async function listRecoveriesCommand(options: { json?: boolean; user?: string }, io: RecoveriesCliIo): Promise<number> {
  return withCliStore(io, async (store) => {
    const summaries = await store.list(options.user);
    if (options.json) {
      io.stdout.write(JSON.stringify({ count: summaries.length, items: summaries }, null, 2) + '\n');
    } else if (summaries.length === 0) {
      io.stdout.write(`No recovery records${options.user === undefined ? '' : ` for ${options.user}`}.\n`);
    } else {
      io.stdout.write(formatRecoveriesTable(summaries, io.now(), createCliColors(io, chalk.level)));
    }
    return RECOVERIES_EXIT.ok;
  });
}

export async function getRecoveryCommand(
  id: string,
  options: { json?: boolean; request?: boolean; response?: boolean; user?: string },
  io: RecoveriesCliIo,
): Promise<number> {
  return withCliStore(io, async (store) => {
    const record = await store.get(id, options.user);
    if (!record) {
      io.stderr.write(`No recovery record ${id}${options.user === undefined ? '' : ` for ${options.user}`}.\n`);
      return RECOVERIES_EXIT.notFound;
    }
    if (options.json) io.stdout.write(JSON.stringify(record, null, 2) + '\n');
    else if (options.request) io.stdout.write(formatJsonText(record.request.body_raw));
    else if (options.response) io.stdout.write(formatJsonText(record.response.body_raw));
    else io.stdout.write(formatRecordDetails(record, io.now(), createCliColors(io, chalk.level)));
    return RECOVERIES_EXIT.ok;
  });
}

export async function lookupRecoveriesCommand(source: string, options: { json?: boolean; user?: string }, io: RecoveriesCliIo): Promise<number> {
  const fromStdin = source === '-';
  let text: string;
  try {
    text = await withSpinner(io, 'Reading the request body', () => (fromStdin ? readAllText(io.stdin) : readFile(source, 'utf8')));
  } catch (error) {
    return writeUsageError(io, `cannot read ${source} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return writeUsageError(io, `${fromStdin ? 'stdin' : source} is not JSON: ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return writeUsageError(io, `${fromStdin ? 'stdin' : source} is not a JSON object (expected the original request body)`);
  }
  const hash = hashRequestBody(body);
  return withCliStore(io, async (store) => {
    const matches = await store.lookup(hash, options.user);
    if (options.json) {
      io.stdout.write(JSON.stringify({ request_body_hash: hash, items: matches }, null, 2) + '\n');
    } else if (matches.length === 0) {
      io.stderr.write(`No recovery record matches this body (hash ${hash}).\n`);
    } else {
      io.stdout.write(formatRecoveriesTable(matches, io.now(), createCliColors(io, chalk.level)));
    }
    return matches.length === 0 ? RECOVERIES_EXIT.notFound : RECOVERIES_EXIT.ok;
  });
}
