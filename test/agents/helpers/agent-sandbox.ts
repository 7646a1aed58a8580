import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The agents' own package (test/agents/node_modules/.bin). */
export const AGENT_BIN = fileURLToPath(new URL('../node_modules/.bin/', import.meta.url));

export interface AgentSandbox {
  /** The temporary HOME: every config and cache folder of the agent lives under it. */
  home: string;
  /** The working folder the agent starts in. */
  workdir: string;
  /** A file in the working folder, and the random token written in it. */
  filePath: string;
  fileToken: string;
  /** Environment shared by all agents: temp folders, no proxy escape, no keys from this machine. */
  env: Record<string, string>;
  remove(): void;
}

/**
 * A fresh temporary HOME and working folder with a note file, and the environment that keeps an
 * agent on this machine: every proxy variable points at `proxyUrl` (the network trap on
 * 127.0.0.1), so a request that tries to leave fails at once; NO_PROXY keeps loopback direct.
 */
export function createAgentSandbox(name: string, proxyUrl: string): AgentSandbox {
  // realpath: the agents print and compare resolved paths (/tmp may be a symlink elsewhere).
  const home = realpathSync(mkdtempSync(join(tmpdir(), `switchyard-agent-${name}-`)));
  const workdir = join(home, 'project');
  mkdirSync(workdir, { recursive: true });
  // Temporary files too (Gemini CLI writes its error reports there).
  mkdirSync(join(home, 'tmp'));
  const fileToken = `FILE-TOKEN-${randomBytes(6).toString('hex')}`;
  const filePath = join(workdir, 'note.txt');
  writeFileSync(filePath, `The note says: ${fileToken}\n`);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    TMPDIR: join(home, 'tmp'),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
    HTTP_PROXY: proxyUrl,
    HTTPS_PROXY: proxyUrl,
    ALL_PROXY: proxyUrl,
    http_proxy: proxyUrl,
    https_proxy: proxyUrl,
    all_proxy: proxyUrl,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  };
  return { home, workdir, filePath, fileToken, env, remove: () => rmSync(home, { recursive: true, force: true }) };
}

export interface AgentRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs an agent binary (a name in AGENT_BIN, or an absolute path) to its end (stdin closed),
 * killing its whole process group after `timeoutMs`.
 */
export function runAgent(command: string, args: string[], options: { cwd: string; env: Record<string, string>; timeoutMs: number }): Promise<AgentRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(isAbsolute(command) ? command : join(AGENT_BIN, command), args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, 'SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Helpers an agent left behind (MCP servers, shells) go with it.
      killGroup(child.pid, 'SIGKILL');
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** A run's output for assertion messages. */
export function describeRun(run: AgentRun): string {
  return `exit ${run.code}${run.signal ? ` (${run.signal})` : ''}${run.timedOut ? ' TIMED OUT' : ''}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr.slice(-4000)}`;
}
