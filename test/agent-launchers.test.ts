import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway } from './helpers/test-gateway.js';

/**
 * `gateway claude|codex|gemini|opencode|qwen` and `gateway env` as a user runs them (dist/, a real
 * process), with a fake agent of each name on PATH: a node script that records its arguments and
 * environment, asks the gateway it was pointed at for its status, then exits as told.
 */
const gatewayScript = fileURLToPath(new URL('../bin/gateway.js', import.meta.url));
let workspace: string;
let fakeBin: string;

const FAKE_AGENT = `#!/usr/bin/env node
const { writeFileSync, existsSync } = require('node:fs');
const out = process.env.FAKE_AGENT_OUT;
const names = ['ANTHROPIC_BASE_URL', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_API_KEY', 'ANTHROPIC_MODEL', 'ANTHROPIC_DEFAULT_HAIKU_MODEL', 'ANTHROPIC_SMALL_FAST_MODEL', 'SWITCHYARD_API_KEY', 'GOOGLE_GEMINI_BASE_URL', 'GEMINI_API_KEY', 'GEMINI_MODEL', 'GEMINI_DEFAULT_AUTH_TYPE', 'OPENCODE_CONFIG_CONTENT', 'OPENAI_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_MODEL'];
const env = {};
for (const name of names) if (name in process.env) env[name] = process.env[name];
const base = (process.env.ANTHROPIC_BASE_URL || process.env.GOOGLE_GEMINI_BASE_URL || (process.env.OPENAI_BASE_URL || '').replace(/\\/v1$/, '') || (JSON.parse(process.env.OPENCODE_CONFIG_CONTENT || 'null')?.provider.switchyard.options.baseURL || '').replace(/\\/v1$/, '') || (process.argv.find((arg) => arg.includes('base_url=')) || '').replace(/^.*base_url="(.*)\\/v1"$/, '$1'));
const record = (extra) => writeFileSync(out, JSON.stringify(Object.assign({ name: require('node:path').basename(process.argv[1]), args: process.argv.slice(2), env, pid: process.pid }, extra)));
fetch(base + '/switchyard/status').then((response) => response.json()).then((status) => {
  record({ status, base });
  if (process.env.FAKE_AGENT_WAIT) {
    process.on('SIGTERM', () => { record({ status, base, signal: 'SIGTERM' }); process.exit(42); });
    const timer = setInterval(() => { if (existsSync(process.env.FAKE_AGENT_WAIT)) process.exit(0); }, 20);
    setTimeout(() => clearInterval(timer), 20000);
    writeFileSync(out + '.ready', '');
    return;
  }
  process.exit(Number(process.env.FAKE_AGENT_EXIT || 0));
}, (error) => { record({ error: String(error), base }); process.exit(99); });
`;

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'switchyard-launchers-'));
  fakeBin = join(workspace, 'bin');
  await mkdir(fakeBin);
  for (const name of ['claude', 'codex', 'gemini', 'opencode', 'qwen']) {
    await writeFile(join(fakeBin, name), FAKE_AGENT.replace('#!/usr/bin/env node', `#!${process.execPath}`));
    await chmod(join(fakeBin, name), 0o755);
  }
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

interface Home {
  home: string;
  port: number;
  url: string;
}

/** A fresh $SWITCHYARD_HOME whose config names a port nobody listens on yet. */
async function newHome(server: Record<string, unknown> = {}): Promise<Home> {
  const home = await mkdtemp(join(workspace, 'home-'));
  const port = await freePort();
  await writeFile(join(home, 'config.json'), JSON.stringify({ server: Object.assign({ port }, server), providers: { mock: { type: 'mock' } } }));
  return { home, port, url: `http://127.0.0.1:${port}` };
}

function environment(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = Object.assign({}, process.env, { SWITCHYARD_HOME: home, PATH: `${fakeBin}:${process.env.PATH}` }, extra);
  for (const name of ['FORCE_COLOR', 'ANTHROPIC_API_KEY', 'SWITCHYARD_API_KEY', 'NO_PROXY', 'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) if (!(name in extra)) delete env[name];
  return env;
}

/** Runs `gateway <args>` to its end (bounded), like a terminal would. */
function run(args: string[], env: NodeJS.ProcessEnv, onSpawn?: (pid: number) => void): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [gatewayScript, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway ${args.join(' ')} did not end in 30 s: ${stderr}`));
    }, 30_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      // The streams may still hold output after exit.
      setImmediate(() => resolvePromise({ code, signal, stdout, stderr }));
    });
    onSpawn?.(child.pid!);
  });
}

async function readRecord(path: string): Promise<any> {
  return JSON.parse(await readFile(path, 'utf8'));
}

async function waitFor(path: string): Promise<void> {
  for (let attempt = 0; attempt < 300 && !existsSync(path); attempt++) await sleep(50);
  if (!existsSync(path)) throw new Error(`${path} never appeared`);
}

/** Whether a gateway answers at `url` (the background one, once stopped, must not). */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/switchyard/status`, { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** A stopped gateway takes a moment to close its port (its grace period is 0 with nothing in flight). */
async function stopped(url: string): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (!(await answers(url))) return true;
    await sleep(50);
  }
  return false;
}

describe('gateway <agent> with no gateway running', () => {
  it('starts one in the background on the configured port, runs the agent on it with its arguments, passes its exit code and stops the gateway', async () => {
    const { home, url } = await newHome();
    const out = join(home, 'agent.json');
    const result = await run(['claude', '--model', 'mock/mock-echo', '--', '-p', 'hello there', '--output-format', 'text'], environment(home, { FAKE_AGENT_OUT: out, FAKE_AGENT_EXIT: '7', ANTHROPIC_API_KEY: 'sk-ant-real' }));
    expect(result.code, result.stderr).toBe(7);
    const record = await readRecord(out);
    expect(record.args).toEqual(['-p', 'hello there', '--output-format', 'text']);
    expect(record.env).toEqual({
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_AUTH_TOKEN: 'switchyard',
      ANTHROPIC_MODEL: 'mock/mock-echo',
      ANTHROPIC_DEFAULT_HAIKU_MODEL: 'mock/mock-echo',
      ANTHROPIC_SMALL_FAST_MODEL: 'mock/mock-echo',
    });
    expect(record.status).toMatchObject({ name: 'switchyard', in_flight: 0, draining: 0 });
    // Its output went to the log under $SWITCHYARD_HOME, not over the agent's screen.
    expect(result.stdout).toBe('');
    expect(await readFile(join(home, 'agents', 'gateway.log'), 'utf8')).toContain(`listening on ${url}`);
    expect(await stopped(url)).toBe(true);
    expect(existsSync(join(home, 'agents', 'gateway.json'))).toBe(false);
  });

  it('shares one background gateway between two agents and stops it when the last one exits', async () => {
    const { home, url } = await newHome();
    const first = join(home, 'first.json');
    const release = join(home, 'release-first');
    const firstRun = run(['gemini'], environment(home, { FAKE_AGENT_OUT: first, FAKE_AGENT_WAIT: release }));
    await waitFor(`${first}.ready`);
    const second = join(home, 'second.json');
    expect((await run(['codex', '--', 'exec', 'hi'], environment(home, { FAKE_AGENT_OUT: second }))).code).toBe(0);
    expect((await readRecord(second)).status.pid).toBe((await readRecord(first)).status.pid);
    // The first agent still uses it.
    expect(await answers(url)).toBe(true);
    await writeFile(release, '');
    expect((await firstRun).code).toBe(0);
    expect(await stopped(url)).toBe(true);
  });
});

describe('gateway <agent> with a gateway already running', () => {
  it('reuses it and leaves it running', async () => {
    const gateway = await startTestGateway();
    try {
      const home = await mkdtemp(join(workspace, 'home-'));
      await writeFile(join(home, 'config.json'), JSON.stringify({ server: { port: Number(new URL(gateway.url).port) } }));
      const out = join(home, 'agent.json');
      const result = await run(['qwen', '--model', 'mock/mock-echo', '--', '-p', 'hi'], environment(home, { FAKE_AGENT_OUT: out }));
      expect(result.code, result.stderr).toBe(0);
      const record = await readRecord(out);
      expect(record.status.pid).toBe(process.pid);
      expect(record.args).toEqual(['--auth-type', 'openai', '-p', 'hi']);
      expect(record.env).toEqual({ OPENAI_BASE_URL: `${gateway.url}/v1`, OPENAI_API_KEY: 'switchyard', OPENAI_MODEL: 'mock/mock-echo' });
      expect(existsSync(join(home, 'agents', 'gateway.log'))).toBe(false);
      expect(await answers(gateway.url)).toBe(true);
    } finally {
      await gateway.close();
    }
  });
});

describe('what each launcher hands its agent', () => {
  it('codex: -c overrides for a provider of its own, the key in the variable it names, the model', async () => {
    const { home, url } = await newHome();
    const out = join(home, 'agent.json');
    const result = await run(['codex', '--model', 'mock/mock-echo', '--', 'exec', '--skip-git-repo-check', 'hi'], environment(home, { FAKE_AGENT_OUT: out, SWITCHYARD_API_KEY: 'sk-mine' }));
    expect(result.code, result.stderr).toBe(0);
    const record = await readRecord(out);
    expect(record.args).toEqual([
      '-c', 'model_provider="switchyard"',
      '-c', 'model_providers.switchyard.name="Switchyard"',
      '-c', `model_providers.switchyard.base_url="${url}/v1"`,
      '-c', 'model_providers.switchyard.wire_api="responses"',
      '-c', 'model_providers.switchyard.env_key="SWITCHYARD_API_KEY"',
      '-c', 'model="mock/mock-echo"',
      'exec', '--skip-git-repo-check', 'hi',
    ]);
    expect(record.env).toEqual({ SWITCHYARD_API_KEY: 'sk-mine' });
    expect(await stopped(url)).toBe(true);
  });

  it('gemini and opencode: their variables, the model included', async () => {
    const { home, url } = await newHome();
    const gemini = join(home, 'gemini.json');
    expect((await run(['gemini', '--model', 'mock/mock-echo'], environment(home, { FAKE_AGENT_OUT: gemini }))).code).toBe(0);
    expect((await readRecord(gemini)).env).toEqual({ GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'switchyard', GEMINI_DEFAULT_AUTH_TYPE: 'gemini-api-key', GEMINI_MODEL: 'mock/mock-echo' });
    const opencode = join(home, 'opencode.json');
    expect((await run(['opencode', '--model', 'mock/mock-echo', '--', 'run', 'hi'], environment(home, { FAKE_AGENT_OUT: opencode }))).code).toBe(0);
    const record = await readRecord(opencode);
    expect(record.args).toEqual(['run', 'hi']);
    expect(JSON.parse(record.env.OPENCODE_CONFIG_CONTENT)).toEqual({
      provider: { switchyard: { npm: '@ai-sdk/openai-compatible', name: 'Switchyard', options: { baseURL: `${url}/v1`, apiKey: 'switchyard' }, models: { 'mock/mock-echo': { name: 'mock/mock-echo' } } } },
      model: 'switchyard/mock/mock-echo',
      small_model: 'switchyard/mock/mock-echo',
    });
  });

  it('a missing agent binary: one line saying how to install it, exit code 127', async () => {
    const { home } = await newHome();
    const result = await run(['opencode'], Object.assign(environment(home), { PATH: '/nonexistent' }));
    expect(result.code).toBe(127);
    expect(result.stderr.trim().split('\n')).toEqual(["opencode is not installed (no 'opencode' on PATH): install it with `npm install -g opencode-ai`."]);
  });
});

describe('signals', () => {
  it('passes SIGTERM to the agent and exits with its code', async () => {
    const { home, url } = await newHome();
    const out = join(home, 'agent.json');
    let launcher = 0;
    const running = run(['claude'], environment(home, { FAKE_AGENT_OUT: out, FAKE_AGENT_WAIT: join(home, 'never') }), (pid) => (launcher = pid));
    await waitFor(`${out}.ready`);
    process.kill(launcher, 'SIGTERM');
    const result = await running;
    expect(result.code).toBe(42);
    expect((await readRecord(out)).signal).toBe('SIGTERM');
    expect(await stopped(url)).toBe(true);
  });

  it('ends as the agent did when a signal killed it (SIGINT, passed on when stdin is no terminal)', async () => {
    const { home } = await newHome();
    const out = join(home, 'agent.json');
    let launcher = 0;
    const running = run(['codex'], environment(home, { FAKE_AGENT_OUT: out, FAKE_AGENT_WAIT: join(home, 'never') }), (pid) => (launcher = pid));
    await waitFor(`${out}.ready`);
    process.kill(launcher, 'SIGINT');
    const result = await running;
    // Killed by it, or its shell exit code (130) where a module of the launcher holds on to it.
    expect(result.signal === 'SIGINT' || result.code === 130, `${result.signal} ${result.code} ${result.stderr}`).toBe(true);
  });
});

describe('gateway env', () => {
  const shells = ['bash', 'zsh'].filter((shell) => spawnSync('which', [shell]).status === 0);

  it.each(shells)('eval "$(gateway env claude)" sets the variables in %s, the key read from SWITCHYARD_API_KEY', async (shell) => {
    const { home, url } = await newHome();
    const script = `eval "$(${process.execPath} ${gatewayScript} env claude --model "gemini/it's-quoted")"; printf '%s|%s|%s|%s' "$ANTHROPIC_BASE_URL" "$ANTHROPIC_MODEL" "$ANTHROPIC_AUTH_TOKEN" "\${ANTHROPIC_API_KEY-unset}"`;
    const result = spawnSync(shell, ['-c', script], { env: environment(home, { SWITCHYARD_API_KEY: 'sk-$HOME"x', ANTHROPIC_API_KEY: 'sk-ant' }), encoding: 'utf8' });
    expect(result.stdout, result.stderr).toBe(`${url}|gemini/it's-quoted|sk-$HOME"x|unset`);
  });

  it.each(shells)('eval "$(gateway env codex)" in %s defines a codex function adding the overrides', async (shell) => {
    const { home, url } = await newHome();
    const out = join(home, 'agent.json');
    // The fake codex asks the gateway for its status: run one for it.
    const gateway = await startTestGateway();
    try {
      await writeFile(join(home, 'config.json'), JSON.stringify({ server: { port: Number(new URL(gateway.url).port) } }));
      const script = `eval "$(${process.execPath} ${gatewayScript} env codex)"; codex exec 'two words'`;
      // Not spawnSync: the fake codex asks this process's gateway for its status.
      const result = await runShell(shell, script, environment(home, { FAKE_AGENT_OUT: out }));
      expect(result.code, result.stderr).toBe(0);
      const record = await readRecord(out);
      expect(record.args.slice(-2)).toEqual(['exec', 'two words']);
      expect(record.args).toContain(`model_providers.switchyard.base_url="${gateway.url}/v1"`);
      expect(record.env).toEqual({ SWITCHYARD_API_KEY: 'switchyard' });
    } finally {
      await gateway.close();
    }
    expect(url).toMatch(/^http:/);
  });
});

describe('gateway status', () => {
  it('--json when nothing runs: running false, exit code 0', async () => {
    const { home, url } = await newHome();
    const result = await run(['status', '--json'], environment(home));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ running: false, url, version: null, uptime_s: null, in_flight: null, draining: null });
  });

  it('--json of a running gateway: its address, version, uptime and counts', async () => {
    const gateway = await startTestGateway();
    try {
      const home = await mkdtemp(join(workspace, 'home-'));
      await writeFile(join(home, 'config.json'), JSON.stringify({ server: { port: Number(new URL(gateway.url).port) } }));
      const result = await run(['status', '--json'], environment(home));
      expect(result.code).toBe(0);
      const version = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')).version;
      expect(JSON.parse(result.stdout)).toEqual({ running: true, url: gateway.url, version, uptime_s: expect.any(Number), in_flight: 0, draining: 0 });
      const text = await run(['status'], environment(home));
      expect(text.stdout).toContain(`running on ${gateway.url}`);
    } finally {
      await gateway.close();
    }
  });
});

function runShell(shell: string, script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(shell, ['-c', script], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stderr });
    });
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}
