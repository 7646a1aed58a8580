import { readFile } from 'node:fs/promises';
import { ConfigError } from './config-error.js';
import type { GatewayConfig } from './config-types.js';
import { parseConfig, type ConfigProtocol } from './parse-config.js';

/**
 * Reads and validates the config file. A missing file is fine when it is the default path (the
 * defaults apply); a missing file named with --config is an error.
 */
export async function loadConfig(options: { path: string; explicit: boolean; env?: NodeJS.ProcessEnv; protocols?: readonly ConfigProtocol[] }): Promise<GatewayConfig> {
  const env = options.env ?? process.env;
  let text: string;
  try {
    text = await readFile(options.path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !options.explicit) return parseConfig(undefined, env, undefined, options.protocols);
    throw new ConfigError(options.path, undefined, `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(options.path, undefined, `not valid JSON: ${(error as Error).message}`);
  }
  return parseConfig(json, env, options.path, options.protocols);
}
