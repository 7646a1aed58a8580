import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/parse-config.js';
import type { RecoveryStore } from '../src/recoveries/recovery-store.js';
import { createLogger } from '../src/server/create-logger.js';
import { startServer, type RunningServer } from '../src/server/start-server.js';
import { POSTGRES_SCHEMA_VERSION } from '../src/store/postgres-migrations.js';
import { openConfiguredRequestLog, type ConfiguredRequestLog } from '../src/store/open-configured-request-log.js';
import { openPostgresRecoveryStore } from '../src/store/postgres-recovery-store.js';
import { createTestDatabase, DATABASE_URL, NO_DATABASE_REASON, type TestDatabase } from './helpers/test-database.js';
import { DatabaseRelay } from './helpers/database-relay.js';
import { serveChild, type Child } from './helpers/serve-child.js';
import { api, interrupt, KEY, until } from './helpers/team-requests.js';

/**
 * Team mode across instances (docs/team.md): an instance killed mid-drain, a retry resumed by
 * another instance than the one that drained, and the database going away under load.
 */
const BIN = fileURLToPath(new URL('../bin/gateway.js', import.meta.url));
describe.skipIf(!DATABASE_URL)('an instance killed mid-drain', () => {
  let database: TestDatabase;
  let home: string;
  const children: Child[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    home = await mkdtemp(join(tmpdir(), 'switchyard-team-kill-'));
    await writeFile(
      join(home, 'config.json'),
      JSON.stringify({
        providers: { mock: { type: 'mock', slowIntervalMs: 50, slowPieces: 600 } },
        store: { type: 'postgres', url: '$TEAM_DATABASE_URL', drainLeaseSeconds: 2 },
      }),
    );
    children.push(...(await Promise.all([serveChild(join(home, 'config.json'), home, database.url), serveChild(join(home, 'config.json'), home, database.url)])));
  });
  afterAll(async () => {
    for (const child of children) child.process.kill('SIGKILL');
    await database?.drop();
    await rm(home, { recursive: true, force: true });
  });

  it('leaves its record complete with what had arrived, cut by a stopped instance, not draining forever; a retry following it elsewhere gets an error, not a clean end', async () => {
    const [a, b] = children;
    const requestId = await interrupt(a.url, { model: 'mock-slow', stream: true, messages: [{ role: 'user', content: 'a very long story' }] });
    // A's drain has refreshed the record with more than the two chunks the client read.
    const draining = await until(
      () => api(b.url, `/v1/recoveries/${requestId}`),
      ({ body }) => body.state === 'draining' && JSON.parse(body.response.body_raw).choices[0].message.content.length > 20,
    );
    expect(draining.body.state).toBe('draining');
    const before = JSON.parse(draining.body.response.body_raw).choices[0].message.content as string;

    // A streaming retry on B follows A's drain (B learns of it within its poll, a second).
    await sleep(1500);
    const follower = new OpenAI({ apiKey: KEY, baseURL: `${b.url}/v1`, maxRetries: 0 });
    const { data: followed, response: followedResponse } = await follower.chat.completions
      .create({ model: 'mock-slow', stream: true, messages: [{ role: 'user', content: 'a very long story' }] })
      .withResponse();
    expect(followedResponse.headers.get('x-switchyard-resumed')).toBe(requestId);
    const iterator = followed[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);

    a.process.kill('SIGKILL');
    // Once A's lease has run out, B's follower ends with its protocol's error, not a clean end.
    const ending = (async () => {
      for (;;) if ((await iterator.next()).done) return 'ended cleanly';
    })().catch((error: Error) => error.message);
    expect(await ending).toMatch(/stopped before its end/);
    const after = await until(() => api(b.url, `/v1/recoveries/${requestId}`), ({ body }) => body.state !== 'draining');
    expect(after.body).toMatchObject({
      request_id: requestId,
      state: 'complete',
      interrupted_reason: 'server_shutdown',
      error_message: 'The gateway instance draining this response stopped before its end; the response holds what had arrived.',
    });
    const kept = JSON.parse(after.body.response.body_raw).choices[0].message.content as string;
    expect(kept.startsWith(before)).toBe(true);
    // 600 pieces at 50 ms: far from done when A was killed.
    expect(kept.split(' ').length).toBeLessThan(600);
    const listed = await api(b.url, '/v1/recoveries');
    expect(listed.body.items.find((item: any) => item.request_id === requestId)).toMatchObject({ state: 'complete', interrupted_reason: 'server_shutdown' });
  });
});

interface Instance {
  server: RunningServer;
  store: RecoveryStore;
  logs: string[];
}

async function startInstance(store: RecoveryStore, providers: object, requestLog?: ConfiguredRequestLog): Promise<Instance> {
  const logs: string[] = [];
  const server = await startServer({
    config: parseConfig({ providers }, {}),
    logger: createLogger({ write: (line) => logs.push(line) }),
    recoveryStore: store,
    host: '127.0.0.1',
    port: 0,
    requestLog: requestLog && { sink: requestLog.sink!, source: requestLog.source },
  });
  return { server, store, logs };
}

describe.skipIf(!DATABASE_URL)('resume across instances', () => {
  let database: TestDatabase;
  let instances: Instance[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    const stores = await Promise.all([0, 1].map(() => openPostgresRecoveryStore({ url: database.url, resumablePollMs: 100 })));
    instances = await Promise.all(stores.map((store) => startInstance(store, { mock: { type: 'mock', slowIntervalMs: 15, slowPieces: 30 } })));
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.server.close(1000)));
    await Promise.all(instances.map((instance) => instance.store.close()));
    await database?.drop();
  });

  it('answers a retry on instance B from the record instance A completed, once', async () => {
    const [a, b] = instances;
    const body = { model: 'mock-slow', stream: true as const, messages: [{ role: 'user' as const, content: 'resume me elsewhere' }] };
    const requestId = await interrupt(a.server.url, body);
    const stored = await until(() => api(b.server.url, `/v1/recoveries/${requestId}`), ({ body: record }) => record.state === 'complete');
    expect(stored.body.state).toBe('complete');
    const recorded = JSON.parse(stored.body.response.body_raw);

    // B learns of A's record within its poll (100 ms here); a retry before that goes upstream, and the loop is bounded.
    await sleep(300);
    const client = new OpenAI({ apiKey: KEY, baseURL: `${b.server.url}/v1`, maxRetries: 0 });
    const { data: stream, response } = await client.chat.completions.create(body).withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(response.headers.get('x-switchyard-resumed')).toBe(requestId);
    expect(text).toBe(recorded.choices[0].message.content);

    const marked = await until(() => api(a.server.url, `/v1/recoveries/${requestId}`), ({ body: record }) => record.resumed_by !== undefined);
    expect(marked.body.resumed_by).toBe(response.headers.get('x-request-id'));
    // Used once: the same retry on A goes upstream.
    const again = await new OpenAI({ apiKey: KEY, baseURL: `${a.server.url}/v1`, maxRetries: 0 }).chat.completions.create(body).withResponse();
    for await (const chunk of again.data) void chunk;
    expect(again.response.headers.get('x-switchyard-resumed')).toBeNull();
  });
});

describe.skipIf(!DATABASE_URL)('the database down under load', () => {
  let database: TestDatabase;
  let relay: DatabaseRelay;
  let instance: Instance;
  let requestLog: ConfiguredRequestLog;
  const storeLogs: string[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    const target = new URL(database.url);
    relay = new DatabaseRelay({ host: target.hostname, port: Number(target.port) });
    await relay.listen();
    target.port = String(relay.port);
    const store = await openPostgresRecoveryStore({ url: target.toString(), maxConnections: 4, log: (line) => storeLogs.push(line) });
    requestLog = await openConfiguredRequestLog({ type: 'postgres', url: target.toString() }, tmpdir(), { write: { maxAgeMs: 86_400_000, maxBytes: 2 ** 30 }, log: (line) => storeLogs.push(line) });
    instance = await startInstance(store, { mock: { type: 'mock', slowIntervalMs: 10, slowPieces: 20 } }, requestLog);
  });
  afterAll(async () => {
    await instance?.server.close(1000);
    await instance?.store.close();
    await relay?.close();
    await database?.drop();
  });

  it('fails no request, and writes every record and log entry kept meanwhile exactly once when it is back', async () => {
    const url = instance.server.url;
    const client = new OpenAI({ apiKey: KEY, baseURL: `${url}/v1`, maxRetries: 0 });
    relay.stop();
    const interrupted: string[] = [];
    const answers: string[] = [];
    for (let round = 0; round < 5; round += 1) {
      const work = [0, 1, 2].map((slot) =>
        interrupt(url, { model: 'mock-slow', stream: true, messages: [{ role: 'user', content: `down ${round} ${slot}` }] }).then((id) => void interrupted.push(id)),
      );
      work.push(
        client.chat.completions
          .create({ model: 'mock-slow', messages: [{ role: 'user', content: `plain ${round}` }] })
          .then((answer) => void answers.push(answer.choices[0].message.content ?? '')),
      );
      await Promise.all(work);
    }
    expect(answers).toHaveLength(5);
    expect(interrupted).toHaveLength(15);
    // The drains end while the database is still away (20 pieces at 10 ms).
    await sleep(800);
    expect((await api(url, '/v1/recoveries')).status).toBe(500);
    expect(storeLogs.join('\n')).toContain('kept in memory until it is back');
    expect(storeLogs.join('\n')).not.toContain(new URL(database.url).password);

    relay.start();
    const listed = await until(
      () => api(url, '/v1/recoveries'),
      ({ status, body }) => status === 200 && body.items.length >= 15 && body.items.every((item: any) => item.state === 'complete'),
    );
    expect(listed.status).toBe(200);
    const ids = listed.body.items.map((item: any) => item.request_id);
    expect(ids.sort()).toEqual([...interrupted].sort());
    for (const item of listed.body.items) expect(item).toMatchObject({ state: 'complete', interrupted_reason: 'client_disconnected' });
    const record = await api(url, `/v1/recoveries/${interrupted[0]}`);
    expect(JSON.parse(record.body.response.body_raw).choices[0].finish_reason).toBe('stop');
    // Every request of the outage has one entry in the request log: 15 cut streams and 5 answers.
    const entries = await until(
      () => requestLog.source.read().catch(() => []),
      (read) => read.length >= 20,
    );
    expect(entries).toHaveLength(20);
    for (const id of interrupted) expect(entries.filter((entry) => entry.request_id === id)).toHaveLength(1);
    expect(storeLogs.join('\n')).toContain('request log database');
    expect(storeLogs.join('\n')).not.toContain('LOST');
    expect(instance.logs.join('\n')).not.toMatch(/could not (save|update)/);
  });
});

describe.skipIf(!DATABASE_URL)('gateway doctor on a PostgreSQL store', () => {
  async function doctor(url: string): Promise<{ code: number | null; checks: Array<{ name: string; status: string; message: string }>; output: string }> {
    const home = await mkdtemp(join(tmpdir(), 'switchyard-team-doctor-'));
    await writeFile(join(home, 'config.json'), JSON.stringify({ server: { port: 1 }, store: { type: 'postgres', url: '$TEAM_DATABASE_URL' } }));
    const child = spawn(process.execPath, [BIN, 'doctor', '--json'], { env: { PATH: process.env.PATH, SWITCHYARD_HOME: home, TEAM_DATABASE_URL: url } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    clearTimeout(timer);
    await rm(home, { recursive: true, force: true });
    return { code, checks: JSON.parse(output.split('\n').find((line) => line.startsWith('{'))!).checks, output };
  }

  it('says the schema is current, to be upgraded by serve, or the database unusable, never with the password', async () => {
    const target = await createTestDatabase();
    try {
      const fresh = await doctor(target.url);
      expect(fresh.checks.find((check) => check.name === 'database')).toMatchObject({ status: 'warn', message: expect.stringContaining('its schema is at version 0') });
      await (await openPostgresRecoveryStore({ url: target.url })).close();
      const current = await doctor(target.url);
      expect(current.checks.find((check) => check.name === 'database')).toMatchObject({ status: 'ok', message: expect.stringContaining(`its schema is at version ${POSTGRES_SCHEMA_VERSION}, this gateway's`) });
      const wrong = new URL(target.url);
      wrong.password = 'not-the-Pa55word';
      const refused = await doctor(wrong.toString());
      expect(refused.code).toBe(1);
      expect(refused.checks.find((check) => check.name === 'database')).toMatchObject({ status: 'fail', message: expect.stringContaining('password authentication failed') });
      for (const run of [fresh, current, refused]) {
        expect(run.output).not.toContain(new URL(target.url).password);
        expect(run.output).not.toContain('not-the-Pa55word');
      }
    } finally {
      await target.drop();
    }
  });
});

describe.skipIf(DATABASE_URL)('team mode across instances', () => {
  it.skip(NO_DATABASE_REASON, () => undefined);
});
