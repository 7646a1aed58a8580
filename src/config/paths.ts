import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** `$SWITCHYARD_HOME`, default `~/.switchyard`: config, recoveries and everything else on disk. */
export function resolveSwitchyardHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.SWITCHYARD_HOME?.trim();
  return fromEnv ? resolve(fromEnv) : join(homedir(), '.switchyard');
}

export function defaultConfigPath(home: string): string {
  return join(home, 'config.json');
}

export function recoveriesDirectory(home: string): string {
  return join(home, 'recoveries');
}
