import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/gateway.js', import.meta.url));

function freshHome(): string {
  return mkdtempSync(join(tmpdir(), 'switchyard-cli-'));
}

/** Starts `gateway serve`, resolves with the process and its base URL once it prints it. */
function serve(args: string[], home: string): Promise<{ child: ChildProcessWithoutNullStreams; url: string; output: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--quiet', ...args], { env: { PATH: process.env.PATH, SWITCHYARD_HOME: home } });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 15_000);
    const onData = (data: Buffer) => {
      output += data.toString();
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (match && output.includes('Ctrl+C')) {
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

describe('the gateway CLI', () => {
  it('--help lists the commands', () => {
    const result = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('serve');
    expect(result.stdout).toContain('Usage: gateway');
  });

  it('an unknown command is a usage error (exit 2)', () => {
    const result = spawnSync(process.execPath, [BIN, 'frobnicate'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
  });

  it('serve prints the base URL and models, answers, and stops cleanly on SIGTERM', async () => {
    const { child, url, output } = await serve(['--port', '0'], freshHome());
    expect(output()).toContain('mock-echo');
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock-echo', messages: [{ role: 'user', content: 'ping' }] }),
    });
    expect(((await response.json()) as any).choices[0].message.content).toBe('ping');
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('an invalid config names the file and the field, and exits non-zero', () => {
    const home = freshHome();
    const file = join(home, 'bad.json');
    writeFileSync(file, JSON.stringify({ providers: { up: { type: 'openai-chat', baseURL: 'ftp://nope' } } }));
    const result = spawnSync(process.execPath, [BIN, 'serve', '--config', file], { encoding: 'utf8', env: { PATH: process.env.PATH, SWITCHYARD_HOME: home } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toContain('providers.up.baseURL');
    const missing = spawnSync(process.execPath, [BIN, 'serve', '--config', join(home, 'absent.json')], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('absent.json');
  });

  it('a taken port falls back to a free one and says so', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const { child, url, output } = await serve(['--port', String(taken)], freshHome());
      expect(url).not.toBe(`http://127.0.0.1:${taken}`);
      expect(output()).toContain(`Port ${taken} is taken`);
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      blocker.close();
    }
  });
});
