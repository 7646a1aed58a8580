import chalk from 'chalk';
import { ConfigError } from '../config/config-error.js';
import { loadStoreConfig } from '../config/load-store-config.js';
import { defaultConfigPath, resolveSwitchyardHome } from '../config/paths.js';
import type { UsageGrouping } from '../log/aggregate-usage.js';
import { parseSince } from '../log/parse-since.js';
import type { RequestLogSource } from '../log/request-log-store.js';
import { openConfiguredRequestLog } from '../store/open-configured-request-log.js';
import { formatLogLine, formatUsageTable } from './log-format.js';

/** How often `--follow` looks for new entries. */
const FOLLOW_INTERVAL_MS = 250;

export async function runUsage(options: { since?: string; by: UsageGrouping; json?: boolean; config?: string }): Promise<number> {
  const since = sinceOf(options.since);
  if (since === null) return 2;
  return withRequestLog(options.config, (log) => printUsage(log, since, options));
}

async function printUsage(log: RequestLogSource, since: number | undefined, options: { by: UsageGrouping; json?: boolean }): Promise<number> {
  const report = await log.sumUsage({ since, by: options.by });
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ since: since === undefined ? null : new Date(since).toISOString(), by: options.by, rows: report.rows, total: report.total })}\n`);
  } else {
    process.stdout.write(formatUsageTable(report, options.by, { color: Boolean(process.stdout.isTTY) }));
  }
  return 0;
}

export async function runLogs(options: { since?: string; follow?: boolean; json?: boolean; config?: string }): Promise<number> {
  const since = sinceOf(options.since);
  if (since === null) return 2;
  return withRequestLog(options.config, (log) => printLogs(log, since, options));
}

async function printLogs(log: RequestLogSource, since: number | undefined, options: { follow?: boolean; json?: boolean }): Promise<number> {
  const color = Boolean(process.stdout.isTTY);
  const print = (entry: Parameters<typeof formatLogLine>[0]) => process.stdout.write(`${options.json ? JSON.stringify(entry) : formatLogLine(entry, { color })}\n`);
  const follower = options.follow ? log.follow() : undefined;
  // Taken before the read, so that an entry written in between is printed by the first poll.
  await follower?.skipExisting();
  for (const entry of await log.read({ since })) print(entry);
  if (!follower) return 0;
  await new Promise<void>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    let failing = false;
    const tick = async () => {
      try {
        for (const entry of await follower.poll()) print(entry);
        failing = false;
      } catch (error) {
        // A database away for a while: said once, and followed again when it is back.
        if (!failing) console.error(chalk.yellow(`cannot read the request log ${log.location}: ${(error as Error).message}; trying again`));
        failing = true;
      }
      timer = setTimeout(() => void tick(), FOLLOW_INTERVAL_MS);
    };
    void tick();
  });
  return 0;
}

/**
 * Opens the request log `serve` writes for one command and closes it: the one the config file's
 * `store` names (`--config`, else $SWITCHYARD_HOME/config.json), by default the files under
 * $SWITCHYARD_HOME/log. An invalid `store` section or a database that cannot be used is one line
 * and exit code 1.
 */
async function withRequestLog(configPath: string | undefined, work: (log: RequestLogSource) => Promise<number>): Promise<number> {
  let log: RequestLogSource;
  try {
    const home = resolveSwitchyardHome();
    // The store section alone, as the recoveries commands read it.
    const store = await loadStoreConfig({ path: configPath ?? defaultConfigPath(home), explicit: configPath !== undefined, env: process.env });
    log = (await openConfiguredRequestLog(store, home, { log: (message) => console.error(message) })).source;
  } catch (error) {
    console.error(chalk.red(error instanceof ConfigError ? `Invalid config: ${error.message}` : `Cannot open the request log: ${(error as Error).message}`));
    return 1;
  }
  try {
    return await work(log);
  } finally {
    await log.close();
  }
}

/** The `--since` time; undefined for none, null (after saying why) for text that is no time. */
function sinceOf(text: string | undefined): number | undefined | null {
  if (text === undefined) return undefined;
  const since = parseSince(text, Date.now());
  if (since === undefined) {
    console.error(chalk.red(`Invalid --since '${text}': expected a duration (90m, 24h, 7d, 2w) or a date (2026-11-01).`));
    return null;
  }
  return since;
}
