import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/gateway.js', import.meta.url));

export interface Child {
  process: ChildProcess;
  url: string;
}

/**
 * `gateway serve` in a process of its own on a free port, as a team runs it: the config file at
 * `configPath` (which may name `$TEAM_DATABASE_URL`), its home at `home`; resolves once it listens.
 */
export async function serveChild(configPath: string, home: string, databaseUrl: string): Promise<Child> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--config', configPath], {
    env: { PATH: process.env.PATH, SWITCHYARD_HOME: home, TEAM_DATABASE_URL: databaseUrl },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 20_000);
    const onData = (data: Buffer) => {
      output += data.toString();
      const found = /listening on \S*(http:\/\/127\.0\.0\.1:\d+)/.exec(output.replace(/\x1b\[[0-9;]*m/g, ''));
      if (found && output.includes('Ctrl+C')) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', () => reject(new Error(`serve exited: ${output}`)));
  });
  return { process: child, url };
}

