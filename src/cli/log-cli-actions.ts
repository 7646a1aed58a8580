import chalk from 'chalk';
import { resolveSwitchyardHome } from '../config/paths.js';
import type { UsageGrouping } from '../log/aggregate-usage.js';
import { RequestLogFollower } from '../log/follow-request-log.js';
import { parseSince } from '../log/parse-since.js';
import { readRequestLog, requestLogDirectory } from '../log/request-log.js';
import { sumRequestLog } from '../log/sum-request-log.js';
import { formatLogLine, formatUsageTable } from './log-format.js';

/** How often `--follow` looks for new entries. */
const FOLLOW_INTERVAL_MS = 250;

export async function runUsage(options: { since?: string; by: UsageGrouping; json?: boolean }): Promise<number> {
  const since = sinceOf(options.since);
  if (since === null) return 2;
  const report = await sumRequestLog(requestLogDirectory(resolveSwitchyardHome()), { since, by: options.by });
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ since: since === undefined ? null : new Date(since).toISOString(), by: options.by, rows: report.rows, total: report.total })}\n`);
  } else {
    process.stdout.write(formatUsageTable(report, options.by, { color: Boolean(process.stdout.isTTY) }));
  }
  return 0;
}

export async function runLogs(options: { since?: string; follow?: boolean; json?: boolean }): Promise<number> {
  const since = sinceOf(options.since);
  if (since === null) return 2;
  const directory = requestLogDirectory(resolveSwitchyardHome());
  const color = Boolean(process.stdout.isTTY);
  const print = (entry: Parameters<typeof formatLogLine>[0]) => process.stdout.write(`${options.json ? JSON.stringify(entry) : formatLogLine(entry, { color })}\n`);
  const follower = options.follow ? new RequestLogFollower(directory) : undefined;
  // Taken before the read, so that an entry written in between is printed by the first poll.
  await follower?.skipExisting();
  for (const entry of await readRequestLog(directory, { since })) print(entry);
  if (!follower) return 0;
  await new Promise<void>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const tick = async () => {
      for (const entry of await follower.poll()) print(entry);
      timer = setTimeout(() => void tick(), FOLLOW_INTERVAL_MS);
    };
    void tick();
  });
  return 0;
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
