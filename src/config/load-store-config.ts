import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import { ConfigError } from './config-error.js';
import { storeFileSchema } from './config-schema.js';
import type { StoreConfig } from './config-types.js';
import { describeIssue, formatPath, innermost } from './describe-issue.js';
import { parseStore } from './parse-store.js';

const storeSectionSchema = v.object({ store: v.optional(storeFileSchema) });

/**
 * The `store` section of the config file, alone: what the recoveries CLI needs to find the
 * records `serve` keeps. Checked by the same schema and rules as `loadConfig`, without the rest of
 * the config, whose validation loads every protocol (about 110 ms of a CLI command's start), and
 * whose mistakes do not keep a user from their records. No file at the default path: the default
 * store; a file named (`explicit`) must be there.
 */
export async function loadStoreConfig(options: { path: string; explicit?: boolean; env: Record<string, string | undefined> }): Promise<StoreConfig> {
  const fail = (field: string | undefined, detail: string): never => {
    throw new ConfigError(options.path, field, detail);
  };
  let text: string;
  try {
    text = await readFile(options.path, 'utf8');
  } catch (error) {
    // A missing file is fine at the default path (the defaults apply), not when it was named.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !options.explicit) return { type: 'files' };
    return fail(undefined, `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return fail(undefined, `not valid JSON: ${(error as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return fail(undefined, 'expected a JSON object at the top level');
  const checked = v.safeParse(storeSectionSchema, json);
  if (!checked.success) {
    const issue = innermost(checked.issues[0], []);
    return fail(formatPath(issue.path), describeIssue(issue));
  }
  return parseStore(checked.output.store, options.env, fail);
}
