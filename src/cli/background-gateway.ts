import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import type { GatewayConfig } from '../config/config-types.js';
import { agentsDirectory, backgroundLogPath, backgroundStatePath, findRunningGateway, isAlive, readBackgroundState } from './find-gateway.js';

/** The gateway an agent uses, and what to do when the agent is done with it. */
export interface GatewayLease {
  url: string;
  /** Whether this launcher started it. */
  started: boolean;
  /** Whether it is a background gateway, stopped when the last agent using it exits. */
  background: boolean;
  release(): Promise<void>;
}

export interface LeaseOptions {
  home: string;
  config: GatewayConfig;
  /** The config file the background gateway is started with, when the user named one. */
  configPath?: string;
  /** The `gateway` CLI script, to start `serve` with. */
  cliScript: string;
  /** How long a starting gateway may take to listen. */
  startTimeoutMs?: number;
}

const PID_SUFFIX = '.pid';

/**
 * The gateway already running here, or a background one started for the agent's lifetime. Each
 * agent on a background gateway leaves a pid file in `$SWITCHYARD_HOME/agents`; the last one to
 * leave (or the first to find only dead ones) stops it. Every step runs under one lock, so two
 * launchers started at once share one gateway.
 */
export async function leaseGateway(options: LeaseOptions): Promise<GatewayLease> {
  const directory = agentsDirectory(options.home);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  return withLock(directory, async () => {
    const running = await findRunningGateway(options.home, options.config);
    if (running && !running.background) return { url: running.url, started: false, background: false, release: async () => undefined };
    let url = running?.url;
    if (!url) {
      const started = await startBackgroundGateway(options);
      url = started.url;
      await writeFile(backgroundStatePath(options.home), JSON.stringify(started), { mode: 0o600 });
    }
    const pidFile = join(directory, `${process.pid}${PID_SUFFIX}`);
    await writeFile(pidFile, '');
    return { url, started: !running, background: true, release: () => withLock(directory, () => leave(options.home, pidFile)) };
  });
}

/** Removes this agent's pid file (and those of agents that died); the last one out stops the gateway. */
async function leave(home: string, pidFile: string): Promise<void> {
  await rm(pidFile, { force: true });
  const directory = agentsDirectory(home);
  let others = 0;
  for (const name of await readdir(directory)) {
    if (!name.endsWith(PID_SUFFIX)) continue;
    if (isAlive(Number(name.slice(0, -PID_SUFFIX.length)))) others += 1;
    else await rm(join(directory, name), { force: true });
  }
  if (others > 0) return;
  const state = await readBackgroundState(home);
  if (state && isAlive(state.pid)) {
    // SIGTERM: `serve` gives requests in flight their grace period and keeps the rest as recoveries.
    process.kill(state.pid, 'SIGTERM');
  }
  await rm(backgroundStatePath(home), { force: true });
}

/**
 * `gateway serve` in its own process group (a Ctrl+C meant for the agent does not reach it), its
 * output appended to the log file; the URL it prints once listening is where it took a port.
 */
async function startBackgroundGateway(options: LeaseOptions): Promise<{ pid: number; url: string }> {
  const logPath = backgroundLogPath(options.home);
  const offset = await stat(logPath).then(
    (stats) => stats.size,
    () => 0,
  );
  const log = openSync(logPath, 'a', 0o600);
  const args = [...process.execArgv, options.cliScript, 'serve', ...(options.configPath !== undefined ? ['--config', options.configPath] : [])];
  // No colours in the log file, whatever the agent's terminal asked for.
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], env: Object.assign({}, process.env, { FORCE_COLOR: '0', NO_COLOR: '1' }) });
  closeSync(log);
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  child.unref();
  const deadline = Date.now() + (options.startTimeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    const text = (await readFile(logPath, 'utf8')).slice(offset);
    const match = /listening on (http:\/\/\S+)/.exec(text);
    if (match) return { pid: child.pid!, url: match[1] };
    if (exited !== undefined) throw new Error(`the background gateway exited (code ${exited}): ${lastLines(text)} (log: ${logPath})`);
    await sleep(50);
  }
  child.kill('SIGTERM');
  throw new Error(`the background gateway did not start listening within ${Math.round((options.startTimeoutMs ?? 15_000) / 1000)} s (log: ${logPath})`);
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' / ') || 'no output';
}

async function withLock<T>(directory: string, run: () => Promise<T>): Promise<T> {
  const release = await lockfile.lock(directory, {
    lockfilePath: join(directory, 'launchers.lock'),
    realpath: false,
    stale: 10_000,
    // Starting a gateway holds the lock a second or two; waiters wait for it, bounded.
    retries: { retries: 300, factor: 1, minTimeout: 100, maxTimeout: 100 },
  });
  try {
    return await run();
  } finally {
    await release();
  }
}
