import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import OpenAI from 'openai';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRecoveriesCommand } from '../src/cli/recoveries-command.js';
import { parseConfig } from '../src/config/parse-config.js';
import { createRecoveryRecord } from '../src/recoveries/recovery-record.js';
import type { RecoveryStore } from '../src/recoveries/recovery-store.js';
import { createLogger } from '../src/server/create-logger.js';
import { startServer, type RunningServer } from '../src/server/start-server.js';
import { redactDatabaseUrl } from '../src/store/database-url.js';
import { POSTGRES_SCHEMA_VERSION } from '../src/store/postgres-migrations.js';
import { openPostgresRecoveryStore } from '../src/store/postgres-recovery-store.js';
import { createTestDatabase, DATABASE_URL, NO_DATABASE_REASON, type TestDatabase } from './helpers/test-database.js';
import { pollUntil } from './helpers/poll-until.js';

/**
 * Team mode (docs/team.md): two gateway instances on one PostgreSQL database. A record made on one
 * is listed, looked up, fetched and deleted through the other, and through the CLI reading the
 * same config; the database password shows nowhere.
 */
const BIN = fileURLToPath(new URL('../bin/gateway.js', import.meta.url));
const RAW_CONFIG = { providers: { mock: { type: 'mock', slowIntervalMs: 15, slowPieces: 30 } } };

interface Instance {
  server: RunningServer;
  store: RecoveryStore;
  logs: string[];
}

let database: TestDatabase;
let instances: Instance[] = [];

async function startInstance(store: RecoveryStore): Promise<Instance> {
  const logs: string[] = [];
  const server = await startServer({ config: parseConfig(RAW_CONFIG, {}), logger: createLogger({ write: (line) => logs.push(line) }), recoveryStore: store, host: '127.0.0.1', port: 0 });
  return { server, store, logs };
}

function api(instance: Instance, path: string, init: RequestInit = {}) {
  return fetch(`${instance.server.url}${path}`, { ...init, headers: { authorization: 'Bearer sk-alice-team', 'content-type': 'application/json' } }).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as any,
  }));
}


describe.skipIf(!DATABASE_URL)('two instances on one PostgreSQL', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    // Both open at once on a fresh database: one migrates, the other waits for it, both come up.
    const stores = await Promise.all([openPostgresRecoveryStore({ url: database.url }), openPostgresRecoveryStore({ url: database.url })]);
    instances = await Promise.all(stores.map(startInstance));
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.server.close(1000)));
    await database?.drop();
  });

  it('migrated the fresh database once, to the current version', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query('SELECT version FROM switchyard_schema ORDER BY version');
    await client.end();
    expect(rows.map((row) => row.version)).toEqual(Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, index) => index + 1));
  });

  it('serves a record drained on one instance through the other: list, lookup, get, delete', async () => {
    const [a, b] = instances;
    const body = { model: 'mock-slow', stream: true as const, messages: [{ role: 'user' as const, content: 'a story for the team' }] };
    const client = new OpenAI({ apiKey: 'sk-alice-team', baseURL: `${a.server.url}/v1`, maxRetries: 0 });
    const { data: stream, response } = await client.chat.completions.create(body).withResponse();
    const requestId = response.headers.get('x-request-id')!;
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    stream.controller.abort();

    const listed = await pollUntil(() => api(b, '/v1/recoveries'), ({ body: list }) => list.items.some((item: any) => item.request_id === requestId && item.state === 'complete'));
    expect(listed.body.items.find((item: any) => item.request_id === requestId)).toMatchObject({ interrupted_reason: 'client_disconnected', state: 'complete' });

    const lookup = await api(b, '/v1/recoveries/lookup', { method: 'POST', body: JSON.stringify(body) });
    expect(lookup.body.items.map((item: any) => item.request_id)).toEqual([requestId]);

    const record = await api(b, `/v1/recoveries/${requestId}`);
    expect(record.status).toBe(200);
    expect(JSON.parse(record.body.request.body_raw)).toEqual(body);
    const answer = JSON.parse(record.body.response.body_raw);
    expect(answer.choices[0].finish_reason).toBe('stop');
    expect(answer.choices[0].message.content.split(' ')).toHaveLength(30);
    expect(await api(a, `/v1/recoveries/${requestId}`)).toEqual(record);

    expect((await api(b, `/v1/recoveries/${requestId}`, { method: 'DELETE' })).body).toMatchObject({ deleted: true, reason: 'OK' });
    expect((await api(a, `/v1/recoveries/${requestId}`)).status).toBe(404);
  });

  it('lets `gateway recoveries` read the same database, from the config file serve reads', async () => {
    const [a] = instances;
    await a.store.add(createRecoveryRecord({
      requestId: 'req_cli_team',
      createdAt: Math.floor(Date.now() / 1000),
      interruptedReason: 'upstream_error',
      user: 'someone',
      model: 'mock-slow',
      protocol: 'openai-chat',
      provider: 'mock',
      requestBodyText: '{"model":"mock-slow"}',
      responseBodyText: '{"choices":[]}',
    }));
    const home = await mkdtemp(join(tmpdir(), 'switchyard-team-'));
    await writeFile(join(home, 'config.json'), JSON.stringify({ store: { type: 'postgres', url: '$TEAM_DATABASE_URL' } }));
    const output: string[] = [];
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    stdin.end();
    const program = new Command('gateway').exitOverride();
    registerRecoveriesCommand(program, {
      stdout: { write: (text: string) => output.push(text), isTTY: false },
      stderr: { write: (text: string) => output.push(text), isTTY: false },
      stdin,
      env: { SWITCHYARD_HOME: home, TEAM_DATABASE_URL: database.url },
      now: Date.now,
      setExitCode: () => undefined,
      exit: (code) => {
        throw new Error(`exit ${code}`);
      },
    });
    await program.parseAsync(['recoveries', 'ls', '--json'], { from: 'user' });
    await rm(home, { recursive: true, force: true });
    expect(JSON.parse(output.join('')).items.map((item: any) => item.request_id)).toContain('req_cli_team');
  });

  it('never shows the password: a refused login names the database with its password blanked', async () => {
    const url = new URL(database.url);
    const password = 'wrong-Pa55word-for-the-test';
    url.password = password;
    const failure = (await openPostgresRecoveryStore({ url: url.toString() }).catch((error: unknown) => error)) as Error;
    expect(failure).toMatchObject({ name: 'RecoveryStoreError', code: 'STORE_IO' });
    expect(failure.message).toContain(`postgres://${url.username}:[redacted]@${url.host}${url.pathname}`);
    expect(failure.message).toContain('password authentication failed');
    const everything = JSON.stringify({ message: failure.message, stack: failure.stack, cause: String((failure as { cause?: unknown }).cause) });
    expect(everything).not.toContain(password);
    expect(everything).not.toContain(new URL(database.url).password);
  });
});

describe.skipIf(!DATABASE_URL)('gateway serve --store', () => {
  it('serves on the database it names, and prints its address with the password blanked, never the password', async () => {
    const home = await mkdtemp(join(tmpdir(), 'switchyard-team-serve-'));
    const target = await createTestDatabase();
    const password = new URL(target.url).password;
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--store', target.url], { env: { PATH: process.env.PATH, SWITCHYARD_HOME: home } });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 15_000);
      const onData = (data: Buffer) => {
        output += data.toString();
        if (output.includes('Ctrl+C')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      void exited.then(() => reject(new Error(`serve exited: ${output}`)));
    });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    const { rows } = await client.query('SELECT max(version) AS version FROM switchyard_schema');
    await client.end();
    await target.drop();
    await rm(home, { recursive: true, force: true });
    expect(rows[0].version).toBe(POSTGRES_SCHEMA_VERSION);
    expect(output).toContain(`Recoveries:         ${redactDatabaseUrl(target.url)}`);
    expect(output).toContain(`Request log:        ${redactDatabaseUrl(target.url)}`);
    expect(output).not.toContain(password);
  });

  it('exits 1 with one line naming the database, password blanked, when it cannot log in', async () => {
    const home = await mkdtemp(join(tmpdir(), 'switchyard-team-serve-'));
    const url = new URL(DATABASE_URL!);
    url.password = 'not-the-Pa55word';
    const result = spawnSync(process.execPath, [BIN, 'serve', '--port', '0', '--store', url.toString()], { env: { PATH: process.env.PATH, SWITCHYARD_HOME: home }, encoding: 'utf8', timeout: 30_000 });
    await rm(home, { recursive: true, force: true });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`Cannot open the recoveries store: Cannot prepare the recoveries database ${redactDatabaseUrl(url.toString())}: password authentication failed`);
    expect(result.stdout + result.stderr).not.toContain('not-the-Pa55word');
  });
});

describe.skipIf(DATABASE_URL)('two instances on one PostgreSQL', () => {
  it.skip(NO_DATABASE_REASON, () => undefined);
});
