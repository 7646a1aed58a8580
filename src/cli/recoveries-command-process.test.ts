import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecoveryRecord } from '../recoveries/recovery-record.js';
import { openRecoveryStore } from '../recoveries/recovery-store.js';
import { transpileForChildProcesses } from '../recoveries/transpile-for-child-processes.mjs';

/**
 * The commands in a real `node` process with the default I/O: exit codes through process.exitCode
 * and process.exit (commander's usage errors), stdin that is not a terminal.
 */
const projectRoot = resolve(fileURLToPath(import.meta.url), '../../..');
let workspace: string;
let mainScript: string;

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'switchyard-cli-process-'));
  const cliFiles = (await readdir(join(projectRoot, 'src/cli'))).filter((name) => name.startsWith('recoveries-')).map((name) => `src/cli/${name}`);
  const build = await transpileForChildProcesses(projectRoot, [
    ...cliFiles,
    'src/cli/commander.ts',
    'src/recoveries',
    // The commands read the `store` section of the config file serve reads, and nothing of the protocols.
    'src/config',
    'src/store',
  ], join(workspace, 'build'));
  mainScript = join(build, 'main.js');
  await writeFile(
    mainScript,
    [
      "import { Command } from 'commander';",
      "import { registerRecoveriesCommand } from './src/cli/recoveries-command.js';",
      "const program = new Command('gateway');",
      'registerRecoveriesCommand(program);',
      'await program.parseAsync(process.argv);',
    ].join('\n'),
  );
  const store = await openRecoveryStore({ directory: join(workspace, 'home', 'recoveries') });
  await store.add(
    createRecoveryRecord({ requestId: 'req_1', createdAt: Math.floor(Date.now() / 1000), interruptedReason: 'upstream_timeout', user: 'alice', model: 'm', protocol: 'gemini', provider: 'mock', requestBodyText: '{"contents":[]}', responseBodyText: '{"candidates":[]}' }),
  );
  await store.close();
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

function gateway(args: string[], input = '') {
  const env: NodeJS.ProcessEnv = { ...process.env, SWITCHYARD_HOME: join(workspace, 'home') };
  delete env.FORCE_COLOR;
  const result = spawnSync(process.execPath, [mainScript, 'recoveries', ...args], { input, encoding: 'utf8', env });
  return { exitCode: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('gateway recoveries in a child process', () => {
  it('reads the store under SWITCHYARD_HOME and exits 0', () => {
    const result = gateway(['ls', '--json']);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ count: 1, items: [{ request_id: 'req_1', interrupted_reason: 'upstream_timeout' }] });
  });

  it('exits 1 when not found and when lookup matches nothing, 0 when it does', () => {
    expect(gateway(['get', 'req_none']).exitCode).toBe(1);
    expect(gateway(['lookup', '-'], '{"contents":[1]}').exitCode).toBe(1);
    expect(gateway(['lookup', '-'], '{ "contents" : [] }').exitCode).toBe(0);
  });

  it("exits 2 on commander's usage errors and on rm --all without a terminal", () => {
    const unknownOption = gateway(['ls', '--bogus']);
    expect(unknownOption.exitCode).toBe(2);
    expect(unknownOption.stderr).toContain("unknown option '--bogus'");
    expect(gateway([]).exitCode).toBe(2);
    expect(gateway(['rm', '--all']).exitCode).toBe(2);
    expect(gateway(['ls', '--help']).exitCode).toBe(0);
    expect(JSON.parse(gateway(['ls', '--json']).stdout).count).toBe(1);
  });
});
