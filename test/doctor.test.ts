import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `gateway doctor` in a real process (dist/) against upstreams on 127.0.0.1: one that lists its
 * models for the right key, one that refuses the key, and a port where nothing listens.
 */
const gatewayScript = fileURLToPath(new URL('../bin/gateway.js', import.meta.url));
let workspace: string;
let upstream: Server;
let upstreamUrl: string;
let closedPort: number;

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'switchyard-doctor-'));
  upstream = createServer((request, response) => {
    const ok = request.headers.authorization === 'Bearer sk-good';
    response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
    response.end(JSON.stringify(ok ? { object: 'list', data: [{ id: 'model-a', object: 'model' }, { id: 'model-b', object: 'model' }] } : { error: { message: 'Incorrect API key provided: sk-bad' } }));
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/v1`;
  const closed = createServer();
  await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
  closedPort = (closed.address() as { port: number }).port;
  await new Promise((done) => closed.close(done));
});
afterAll(async () => {
  await new Promise((done) => upstream.close(done));
  await rm(workspace, { recursive: true, force: true });
});

async function doctor(providers: Record<string, unknown>, args: string[] = ['--json']): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const home = await mkdtemp(join(workspace, 'home-'));
  await writeFile(join(home, 'config.json'), JSON.stringify({ server: { port: closedPort }, providers: Object.assign({ mock: false }, providers) }));
  const env: NodeJS.ProcessEnv = Object.assign({}, process.env, { SWITCHYARD_HOME: home });
  delete env.FORCE_COLOR;
  return new Promise((done) => {
    const child = spawn(process.execPath, [gatewayScript, 'doctor', ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

const good = () => ({ type: 'openai-chat', baseURL: upstreamUrl, apiKey: 'sk-good', discoverModels: false });

describe('gateway doctor', () => {
  it('a good provider, an unreachable one and a rejected key: a verdict each, exit code 1, no key printed', async () => {
    const result = await doctor({
      good: good(),
      down: { type: 'openai-chat', baseURL: `http://127.0.0.1:${closedPort}/v1`, apiKey: 'sk-down', discoverModels: false },
      badkey: { type: 'openai-chat', baseURL: upstreamUrl, apiKey: 'sk-bad', discoverModels: false },
    });
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.ok).toBe(false);
    const byName = Object.fromEntries(report.checks.map((check: { name: string }) => [check.name, check]));
    expect(Object.keys(byName)).toEqual(['config', 'good', 'down', 'badkey', 'port', 'store', 'log', 'node']);
    expect(byName.config.status).toBe('ok');
    expect(byName.good).toEqual({ name: 'good', status: 'ok', message: `${upstreamUrl} answers and accepts the key (2 model(s) listed).` });
    expect(byName.down.status).toBe('fail');
    expect(byName.down.message).toMatch(/is unreachable .*check baseURL/);
    expect(byName.badkey).toEqual({ name: 'badkey', status: 'fail', message: `${upstreamUrl} rejected the key (HTTP 401): check apiKey (or the variable it names).` });
    for (const name of ['port', 'store', 'log', 'node']) expect(byName[name].status).toBe('ok');
    expect(result.stdout).not.toMatch(/sk-(good|bad|down)/);
  });

  it('all good: exit code 0, and a line per check for people', async () => {
    const json = await doctor({ good: good() });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).ok).toBe(true);
    const text = await doctor({ good: good() }, []);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n').filter(Boolean).map((line) => line.split(/\s+/).slice(0, 2).join(' '))).toEqual(['✔ config', '✔ good', '✔ port', '✔ store', '✔ log', '✔ node']);
  });

  it('a config that does not parse fails the config check', async () => {
    const result = await doctor({ broken: { type: 'no-such-protocol', baseURL: 'x' } });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).checks[0]).toMatchObject({ name: 'config', status: 'fail' });
  });
});
