import chalk from 'chalk';
import ora from 'ora';
import { resolveSwitchyardHome } from '../config/paths.js';
import { checkConfig, checkFolder, checkNode, checkPort, checkProviders, checkStore, doctorFolders, type CheckStatus, type DoctorCheck } from './doctor-checks.js';

const MARKS: Record<CheckStatus, string> = { ok: chalk.green('✔'), warn: chalk.yellow('!'), fail: chalk.red('✖') };

export async function runDoctor(options: { json?: boolean; config?: string }): Promise<number> {
  const home = resolveSwitchyardHome();
  const checks: DoctorCheck[] = [];
  const { check, config } = await checkConfig(home, options.config);
  checks.push(check);
  if (config) {
    // Providers are the slow part (network, up to a few seconds each, checked at once).
    const spinner = !options.json && process.stderr.isTTY ? ora({ text: `Checking ${config.providers.length} provider(s)…`, stream: process.stderr }).start() : undefined;
    try {
      checks.push(...(await checkProviders(config)));
    } finally {
      spinner?.stop();
    }
    checks.push(await checkPort(config));
    const store = await checkStore(config);
    if (store) checks.push(store);
  }
  for (const { name, folder } of doctorFolders(home)) checks.push(await checkFolder(name, folder));
  checks.push(checkNode());
  const ok = checks.every((entry) => entry.status !== 'fail');
  if (options.json) {
    console.log(JSON.stringify({ ok, checks }));
  } else {
    const width = Math.max(...checks.map((entry) => entry.name.length));
    for (const entry of checks) console.log(`${MARKS[entry.status]} ${entry.name.padEnd(width)}  ${entry.status === 'ok' ? entry.message : chalk[entry.status === 'fail' ? 'red' : 'yellow'](entry.message)}`);
  }
  return ok ? 0 : 1;
}
