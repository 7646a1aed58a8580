import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecoveryRecord } from '../recoveries/recovery-record.js';
import { openRecoveryStore } from '../recoveries/recovery-store.js';
import { registerRecoveriesCommand } from './recoveries-command.js';

/** The real commands in-process: a fresh program per run, captured output, a fixed clock. */
const NOW_MS = 1_750_000_000_000;
const chatBody = { model: 'model-a', messages: [{ role: 'user', content: 'hi' }], stream: true };

class ExitSignal {
  constructor(readonly code: number) {}
}

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'switchyard-cli-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function seed(): Promise<void> {
  const store = await openRecoveryStore({ directory: join(home, 'recoveries'), now: () => NOW_MS });
  const base = { interruptedReason: 'client_disconnected' as const, model: 'model-a', protocol: 'openai-chat' as const, provider: 'mock', responseBodyText: '{"id":"c1","choices":[]}' };
  await store.add(createRecoveryRecord({ ...base, requestId: 'req_a', createdAt: NOW_MS / 1000 - 90, user: 'alice', state: 'draining', requestBodyText: JSON.stringify(chatBody) }));
  await store.add(createRecoveryRecord({ ...base, requestId: 'req_b', createdAt: NOW_MS / 1000 - 7200, user: 'bob', interruptedReason: 'upstream_error', requestBodyText: '{"model":"model-b"}', responseBodyText: 'x'.repeat(2048) }));
  await store.close();
}

async function runCli(args: string[], options: { stdin?: string; terminal?: boolean } = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const stdin = Object.assign(new PassThrough(), { isTTY: options.terminal ?? false });
  stdin.end(options.stdin ?? '');
  let exitCode = 0;
  const program = new Command('gateway').exitOverride();
  registerRecoveriesCommand(program, {
    stdout: { write: (text: string) => stdout.push(text), isTTY: options.terminal ?? false },
    stderr: { write: (text: string) => stderr.push(text), isTTY: false },
    stdin,
    env: { SWITCHYARD_HOME: home },
    now: () => NOW_MS,
    setExitCode: (code) => (exitCode = code),
    exit: (code) => {
      throw new ExitSignal(code);
    },
  });
  try {
    await program.parseAsync(['recoveries', ...args], { from: 'user' });
  } catch (error) {
    if (!(error instanceof ExitSignal)) throw error;
    exitCode = error.code;
  }
  return { exitCode, stdout: stdout.join(''), stderr: stderr.join('') };
}

describe('recoveries ls', () => {
  it('prints a plain table off a terminal, newest first', async () => {
    await seed();
    const { exitCode, stdout } = await runCli(['ls']);
    expect(exitCode).toBe(0);
    expect(stdout).not.toContain('\u001b[');
    const [hashA, hashB] = [(await runCli(['get', 'req_a', '--json'])).stdout, (await runCli(['get', 'req_b', '--json'])).stdout].map((text) => JSON.parse(text).request.request_body_hash);
    expect(stdout).toBe(
      [
        'ID     AGE  REASON               STATE     HASH              USER   MODEL    PROTOCOL       SIZE',
        `req_a  1m   client_disconnected  draining  ${hashA}  alice  model-a  openai-chat    24 B`,
        `req_b  2h   upstream_error       complete  ${hashB}  bob    model-a  openai-chat  2.0 KB`,
        '',
      ].join('\n'),
    );
  });

  it('colours the table on a terminal', async () => {
    await seed();
    expect((await runCli(['ls'], { terminal: true })).stdout).toContain('\u001b[');
  });

  it('prints JSON, filters by user, and says so when empty', async () => {
    await seed();
    const json = JSON.parse((await runCli(['ls', '--json', '--user', 'bob'])).stdout);
    expect(json.count).toBe(1);
    expect(json.items[0]).toMatchObject({ request_id: 'req_b', user: 'bob', interrupted_reason: 'upstream_error', state: 'complete' });
    expect(JSON.parse((await runCli(['ls', '--json', '--user', 'alice'])).stdout).items[0]).toMatchObject({ request_id: 'req_a', state: 'draining' });
    expect(await runCli(['ls', '--user', 'carol'])).toEqual({ exitCode: 0, stdout: 'No recovery records for carol.\n', stderr: '' });
  });
});

describe('recoveries get', () => {
  it('shows details, the whole record, or one body pretty-printed', async () => {
    await seed();
    const details = await runCli(['get', 'req_a']);
    expect(details.exitCode).toBe(0);
    expect(details.stdout).toContain('reason    client_disconnected');
    expect(details.stdout).toContain('state     draining (the upstream is still being read; the response grows)');
    expect(JSON.parse((await runCli(['get', 'req_a', '--json'])).stdout)).toMatchObject({ request_id: 'req_a', user: 'alice' });
    expect((await runCli(['get', 'req_a', '--request'])).stdout).toBe(JSON.stringify(chatBody, null, 2) + '\n');
    expect((await runCli(['get', 'req_a', '--response'])).stdout).toBe('{\n  "id": "c1",\n  "choices": []\n}\n');
  });

  it('exits 1 for a missing id and for a record of another --user', async () => {
    await seed();
    expect(await runCli(['get', 'req_none'])).toEqual({ exitCode: 1, stdout: '', stderr: 'No recovery record req_none.\n' });
    expect((await runCli(['get', 'req_a', '--user', 'bob'])).exitCode).toBe(1);
  });

  it('exits 2 on usage errors', async () => {
    expect((await runCli(['get', 'req_a', '--json', '--request'])).exitCode).toBe(2);
    expect((await runCli(['get', 'req_a', '--request', '--response'])).exitCode).toBe(2);
    expect((await runCli(['get'])).exitCode).toBe(2);
    expect((await runCli(['ls', '--bogus'])).exitCode).toBe(2);
    expect((await runCli([])).exitCode).toBe(2);
    expect((await runCli(['ls', '--help'])).exitCode).toBe(0);
  });
});

describe('recoveries rm', () => {
  it('deletes one record, then exits 1 when it is gone', async () => {
    await seed();
    expect(await runCli(['rm', 'req_a'])).toEqual({ exitCode: 0, stdout: 'Deleted req_a.\n', stderr: '' });
    expect(await runCli(['rm', 'req_a'])).toEqual({ exitCode: 1, stdout: '', stderr: 'No recovery record req_a.\n' });
    expect((await runCli(['rm', 'req_b', '--user', 'alice'])).exitCode).toBe(1);
  });

  it('counts with --all --dry-run and refuses --all without a terminal or --yes', async () => {
    await seed();
    expect(await runCli(['rm', '--all', '--dry-run'])).toEqual({ exitCode: 0, stdout: 'Would delete 2 recovery record(s).\n', stderr: '' });
    expect(await runCli(['rm', '--all'])).toEqual({ exitCode: 2, stdout: '', stderr: 'error: rm --all needs --yes when no terminal can confirm it\n' });
    expect((await runCli(['rm'])).exitCode).toBe(2);
    expect((await runCli(['rm', 'req_a', '--all'])).exitCode).toBe(2);
    expect(JSON.parse((await runCli(['ls', '--json'])).stdout).count).toBe(2);
  });

  it('asks on a terminal: no keeps everything (exit 1), yes deletes', async () => {
    await seed();
    const declined = await runCli(['rm', '--all', '--user', 'alice'], { terminal: true, stdin: 'n\n' });
    expect(declined).toMatchObject({ exitCode: 1, stdout: '' });
    expect(declined.stderr).toBe('Delete 1 recovery record(s) of alice? [y/N] Nothing deleted.\n');
    expect(await runCli(['rm', '--all', '--user', 'alice'], { terminal: true, stdin: 'y\n' })).toMatchObject({ exitCode: 0, stdout: 'Deleted 1 recovery record(s) of alice.\n' });
    expect(await runCli(['rm', '--all', '--yes'])).toEqual({ exitCode: 0, stdout: 'Deleted 1 recovery record(s).\n', stderr: '' });
    expect((await runCli(['ls'])).stdout).toBe('No recovery records.\n');
  });
});

describe('recoveries lookup', () => {
  it('finds records from a file or stdin, whatever the key order and whitespace', async () => {
    await seed();
    const file = join(home, 'body.json');
    await writeFile(file, '{\n  "stream": true,\n  "messages": [{"content": "hi", "role": "user"}],\n  "model": "model-a"\n}\n');
    const fromFile = await runCli(['lookup', file]);
    expect(fromFile.exitCode).toBe(0);
    expect(fromFile.stdout).toContain('req_a');
    expect(fromFile.stdout).not.toContain('req_b');
    const fromStdin = JSON.parse((await runCli(['lookup', '-', '--json'], { stdin: JSON.stringify(chatBody) })).stdout);
    expect(fromStdin.items.map((item: { request_id: string }) => item.request_id)).toEqual(['req_a']);
    expect((await runCli(['lookup', file, '--user', 'bob'])).exitCode).toBe(1);
  });

  it('exits 1 without a match and 2 for input that is not a JSON object', async () => {
    await seed();
    const noMatch = await runCli(['lookup', '-'], { stdin: '{"model":"other"}' });
    expect(noMatch.exitCode).toBe(1);
    expect(noMatch.stderr).toMatch(/^No recovery record matches this body \(hash [0-9a-f]{16}\)\.\n$/);
    expect((await runCli(['lookup', '-'], { stdin: '{"model":' })).exitCode).toBe(2);
    expect((await runCli(['lookup', '-'], { stdin: '[1]' })).exitCode).toBe(2);
    expect((await runCli(['lookup', join(home, 'missing.json')])).exitCode).toBe(2);
  });
});

describe('a corrupt store', () => {
  it('prints one line naming the file and exits 1', async () => {
    const index = join(home, 'recoveries', 'index.json');
    await mkdir(join(home, 'recoveries'), { recursive: true });
    await writeFile(index, 'not json');
    const result = await runCli(['ls']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`error: The recoveries index ${index} is corrupt`);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('recoveries --config', () => {
  it('reads the store of the config file named, before or after the subcommand', async () => {
    await seed();
    const config = join(home, 'team.json');
    await writeFile(config, JSON.stringify({ store: { type: 'files' }, providers: { broken: { type: 'nonsense' } } }));
    const before = await runCli(['--config', config, 'ls', '--json']);
    const after = await runCli(['ls', '--json', '--config', config]);
    expect(before.exitCode, before.stderr).toBe(0);
    expect(JSON.parse(before.stdout).count).toBe(2);
    expect(after.stdout).toBe(before.stdout);
  });

  it('names the file when it is not there or its store is wrong, and exits 1', async () => {
    const missing = await runCli(['ls', '--config', join(home, 'missing.json')]);
    expect(missing).toMatchObject({ exitCode: 1, stdout: '' });
    expect(missing.stderr).toBe(`error: invalid config: ${join(home, 'missing.json')}: cannot read the file (ENOENT)\n`);
    const config = join(home, 'team.json');
    await writeFile(config, JSON.stringify({ store: { type: 'postgres', url: '$TEAM_DATABASE_URL' } }));
    const unset = await runCli(['get', 'req_a', '--config', config]);
    expect(unset.exitCode).toBe(1);
    expect(unset.stderr).toContain('store.url: refers to the environment variable TEAM_DATABASE_URL, which is not set');
  });
});
