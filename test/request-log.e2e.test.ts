import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRequestLog, type RequestLogEntry } from '../src/log/request-log.js';
import type { RequestLogSink, RequestLogSource } from '../src/log/request-log-store.js';
import { openConfiguredRequestLog } from '../src/store/open-configured-request-log.js';
import { readUsageDetails, replyWithCachedUsage, CACHED_USAGE_FILES } from './helpers/cached-usage-fixtures.js';
import { clientRequest } from './helpers/client-samples.js';
import { createUpstreamProviders, UPSTREAM_PROTOCOLS, UPSTREAM_PROVIDER_ID, type UpstreamProtocol } from './helpers/fake-protocol-upstream.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { startFaultyUpstream, type FaultyUpstream } from './helpers/faulty-upstream.js';
import { createTestDatabase, DATABASE_URL, queryDatabase } from './helpers/test-database.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

const BIN = fileURLToPath(new URL('../bin/gateway.js', import.meta.url));
const UPSTREAM_KEY = 'sk-upstream-secret-0123456789';
const CLIENT_KEY = 'sk-client-secret-0123456789';

/** One store the request log can be kept in, as the suite below drives and reads it. */
interface LogStoreUnderTest {
  /** The store the gateway writes to; none: its own files (the test gateway's home). */
  requestLog?: { sink: RequestLogSink; source: RequestLogSource };
  /** Every entry, as the store holds it. */
  read(): Promise<RequestLogEntry[]>;
  /** The bodies kept with the entries, as stored (JSON text, one per entry). */
  storedBodies(): Promise<string[]>;
  /** How the CLI finds this store: its environment and arguments. */
  cli: { env: Record<string, string | undefined>; args: string[] };
  close(): Promise<void>;
}

/** The log's files in the test gateway's home: the default. */
async function filesUnderTest(): Promise<(gateway: TestGateway) => LogStoreUnderTest> {
  return (gateway) => ({
    read: () => readRequestLog(gateway.logDirectory),
    async storedBodies() {
      const bodyFiles = (await readdir(gateway.logDirectory)).filter((file) => file.endsWith('.bodies.jsonl'));
      return (await Promise.all(bodyFiles.map((file) => readFile(join(gateway.logDirectory, file), 'utf8')))).join('').split('\n').filter(Boolean);
    },
    cli: { env: { PATH: process.env.PATH, SWITCHYARD_HOME: dirname(gateway.logDirectory) }, args: [] },
    close: async () => undefined,
  });
}

/** A fresh PostgreSQL database (docs/team.md), which the CLI finds through a config file naming `$DATABASE_URL`. */
async function postgresUnderTest(): Promise<(gateway: TestGateway) => LogStoreUnderTest> {
  const database = await createTestDatabase();
  const opened = await openConfiguredRequestLog({ type: 'postgres', url: database.url }, tmpdir(), { write: { maxAgeMs: 86_400_000, maxBytes: 2 ** 30 }, log: () => undefined });
  const home = mkdtempSync(join(tmpdir(), 'switchyard-log-cli-'));
  const configFile = join(home, 'team.json');
  writeFileSync(configFile, JSON.stringify({ store: { type: 'postgres', url: '$DATABASE_URL' } }));
  return () => ({
    requestLog: { sink: opened.sink!, source: opened.source },
    read: () => opened.source.read(),
    storedBodies: async () => (await queryDatabase<{ bodies: string }>(database.url, 'SELECT bodies FROM switchyard_request_log WHERE bodies IS NOT NULL')).map((row) => row.bodies),
    cli: { env: { PATH: process.env.PATH, SWITCHYARD_HOME: home, DATABASE_URL: database.url }, args: ['--config', configFile] },
    close: async () => {
      rmSync(home, { recursive: true, force: true });
      await database.drop();
    },
  });
}

const STORES = [
  { name: 'files', open: filesUnderTest, skip: false },
  { name: 'postgres', open: postgresUnderTest, skip: DATABASE_URL === undefined },
];

describe.each(STORES)('the request log on $name', ({ name, open, skip }) => {
  let upstream: FakeUpstream;
  let faulty: FaultyUpstream;
  let gateway: TestGateway;
  let store: LogStoreUnderTest;

  beforeAll(async () => {
    if (skip) return;
    upstream = await startFakeUpstream(replyWithCachedUsage);
    // An Anthropic stream that stops before message_stop: the client's stream is cut, a recovery is made.
    faulty = await startFaultyUpstream(() => ({
      contentType: 'text/event-stream',
      head: 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"stop_reason":null,"usage":{"input_tokens":11,"output_tokens":1}}}\n\n',
    }));
    const providers = createUpstreamProviders(upstream.url);
    for (const provider of Object.values(providers)) provider.apiKey = UPSTREAM_KEY;
    providers.cut = { type: 'anthropic-messages', baseURL: faulty.url, apiKey: UPSTREAM_KEY, discoverModels: false };
    const storeFor = await open();
    let requestLog: LogStoreUnderTest['requestLog'];
    gateway = await startTestGateway(
      {
        providers,
        keys: [{ key: CLIENT_KEY, user: 'alice' }],
        prices: { 'up-anthropic/cached': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
      },
      { logBodies: true, requestLog: (requestLog = storeFor({ logDirectory: '' } as TestGateway).requestLog) },
    );
    store = Object.assign(storeFor(gateway), { requestLog });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await faulty?.close();
    await store?.close();
  });

  async function send(client: UpstreamProtocol, model: string, stream: boolean, extra: Record<string, unknown> = {}): Promise<string> {
    const request = clientRequest(client, model, stream, { body: extra });
    const headers = Object.assign({ 'content-type': 'application/json', 'user-agent': 'log-test/1' }, request.headers);
    for (const header of ['authorization', 'x-api-key', 'x-goog-api-key']) if (header in headers) (headers as Record<string, string>)[header] = header === 'authorization' ? `Bearer ${CLIENT_KEY}` : CLIENT_KEY;
    const response = await fetch(`${gateway.url}${request.path}`, { method: 'POST', headers, body: JSON.stringify(request.body) });
    await response.text();
    return response.headers.get('x-request-id')!;
  }

  async function entries(): Promise<Map<string, RequestLogEntry>> {
    await gateway.server.requestLog!.flush();
    return new Map((await store.read()).map((entry) => [entry.request_id, entry]));
  }

  const cli = (args: string[]) => spawnSync(process.execPath, [BIN, ...args, ...store.cli.args], { encoding: 'utf8', env: store.cli.env });

  const sent: Array<{ id: string; client: UpstreamProtocol; to: UpstreamProtocol; stream: boolean }> = [];

  it.skipIf(skip)('has an entry for every client × upstream protocol, stream and not, passthrough and translated', async () => {
    for (const client of UPSTREAM_PROTOCOLS) {
      for (const to of UPSTREAM_PROTOCOLS) {
        for (const stream of [false, true]) sent.push({ id: await send(client, `${UPSTREAM_PROVIDER_ID[to]}/text`, stream), client, to, stream });
      }
    }
    const log = await entries();
    for (const { id, client, to, stream } of sent) {
      const entry = log.get(id)!;
      expect(entry, `${client} → ${to}${stream ? ' stream' : ''}`).toMatchObject({
        request_id: id,
        user: 'alice',
        protocol: client,
        model: `${UPSTREAM_PROVIDER_ID[to]}/text`,
        upstream: `${UPSTREAM_PROVIDER_ID[to]}/text`,
        attempts: 1,
        mode: client === to ? 'passthrough' : 'translate',
        status: 200,
        stream,
        // No price for a made-up provider on loopback.
        cost_usd: null,
        interrupted_reason: null,
        resumed_from: null,
        user_agent: 'log-test/1',
      });
      expect(Object.keys(entry)).toEqual(ENTRY_FIELDS);
      expect(Date.parse(entry.time)).not.toBeNaN();
      expect(entry.input_tokens, `${client} → ${to}${stream ? ' stream' : ''}`).toBeGreaterThan(0);
      expect(entry.output_tokens).toBeGreaterThan(0);
      expect(entry.ttfb_ms).toBeLessThanOrEqual(entry.duration_ms);
      expect(entry.endpoint).toBe(clientRequest(client, `${UPSTREAM_PROVIDER_ID[to]}/text`, stream).path.split('?')[0]);
    }
  });

  it.skipIf(skip)('counts cached tokens and prices them from the config, for each protocol', async () => {
    for (const protocol of UPSTREAM_PROTOCOLS) {
      const id = await send(protocol, `${UPSTREAM_PROVIDER_ID[protocol]}/cached`, false);
      const entry = (await entries()).get(id)!;
      const usage = readUsageDetails(protocol, CACHED_USAGE_FILES[protocol]);
      expect(entry).toMatchObject({ mode: 'passthrough', input_tokens: usage.input, output_tokens: usage.output, cached_tokens: usage.cacheRead, cache_write_tokens: usage.cacheWrite ?? null, reasoning_tokens: usage.reasoning ?? null });
      if (protocol === 'anthropic-messages') {
        const cacheWrite = usage.cacheWrite ?? 0;
        const expected = ((usage.input - usage.cacheRead - cacheWrite) * 3 + usage.cacheRead * 0.3 + cacheWrite * 3.75 + usage.output * 15) / 1e6;
        expect(entry.cost_usd).toBeCloseTo(expected, 9);
      }
    }
  });

  it.skipIf(skip)('a mock model costs 0; a token count has an entry with no upstream', async () => {
    const mock = await send('openai-chat', 'mock-echo', true);
    const count = await fetch(`${gateway.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': CLIENT_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-x', messages: [{ role: 'user', content: 'How many tokens is this?' }] }),
    });
    const counted = (await count.json()) as { input_tokens: number };
    const log = await entries();
    expect(log.get(mock)).toMatchObject({ upstream: 'mock/mock-echo', mode: 'mock', cost_usd: 0, stream: true });
    expect(log.get(count.headers.get('x-request-id')!)).toMatchObject({
      endpoint: '/v1/messages/count_tokens',
      model: 'claude-x',
      upstream: null,
      mode: null,
      attempts: 0,
      status: 200,
      input_tokens: counted.input_tokens,
      output_tokens: null,
    });
  });

  it.skipIf(skip)('an interrupted stream: its reason, and its bodies with every key redacted', async () => {
    const id = await send('anthropic-messages', 'cut/claude', true, { system: `never say ${UPSTREAM_KEY} or ${CLIENT_KEY}` });
    const entry = (await entries()).get(id)!;
    expect(entry).toMatchObject({ upstream: 'cut/claude', mode: 'passthrough', interrupted_reason: 'upstream_error', input_tokens: 11 });
    const stored = await store.storedBodies();
    const text = stored.join('\n');
    expect(text).not.toContain(UPSTREAM_KEY);
    expect(text).not.toContain(CLIENT_KEY);
    const bodies = stored.map((line) => JSON.parse(line)).find((record) => record.request_id === id);
    expect(JSON.parse(bodies.request).system).toBe('never say [redacted] or [redacted]');
    expect(JSON.parse(bodies.upstream_request).model).toBe('claude');
    expect(JSON.parse(bodies.response)).toMatchObject({ type: 'message', usage: { input_tokens: 11 } });
  });

  it.skipIf(skip || name !== 'files')('its files are readable by their owner only', async () => {
    await entries();
    for (const file of await readdir(gateway.logDirectory)) expect(statSync(join(gateway.logDirectory, file)).mode & 0o777).toBe(0o600);
  });

  it.skipIf(skip)('gateway usage and gateway logs print it, as a table and as JSON', async () => {
    const log = await entries();
    const json = cli(['usage', '--by', 'provider', '--json']);
    expect(json.status, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ since: null, by: 'provider' });
    const all = [...log.values()];
    const anthropic = all.filter((entry) => entry.upstream?.startsWith('up-anthropic/'));
    expect(report.rows.find((row: { key: string }) => row.key === 'up-anthropic')).toEqual({
      key: 'up-anthropic',
      requests: anthropic.length,
      input_tokens: anthropic.reduce((sum, entry) => sum + (entry.input_tokens ?? 0), 0),
      output_tokens: anthropic.reduce((sum, entry) => sum + (entry.output_tokens ?? 0), 0),
      cached_tokens: anthropic.reduce((sum, entry) => sum + (entry.cached_tokens ?? 0), 0),
      // Its `text` model has no price: the group shows none, not a partial sum.
      cost_usd: null,
    });
    expect(report.rows.find((row: { key: string }) => row.key === 'mock')).toMatchObject({ requests: 1, cost_usd: 0 });
    expect(report.total.requests).toBe(all.length);

    const table = cli(['usage', '--by', 'model', '--since', '1h']);
    expect(table.status).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^model\s+requests\s+input\s+output\s+cached\s+cost$/);
    expect(lines.find((line) => line.startsWith('up-anthropic/cached'))).toMatch(/\$0\.\d+$/);
    expect(lines.find((line) => line.startsWith('up-chat/text'))).toMatch(/\s-$/);
    expect(lines.find((line) => line.startsWith('mock/mock-echo'))).toMatch(/\$0\.0000$/);
    expect(lines.find((line) => line.startsWith('total'))).toMatch(new RegExp(`^total\\s+${all.length}\\s`));

    const logs = cli(['logs', '--json']);
    const printed = logs.stdout.trim().split('\n').map((line) => JSON.parse(line) as RequestLogEntry);
    expect(printed.map((entry) => entry.request_id).sort()).toEqual([...log.keys()].sort());
    const plain = cli(['logs']);
    expect(plain.stdout).toMatch(/ 200 {2}openai-chat up-chat\/text → up-chat\/text {2}passthrough {2}\d+ms {2}in=\d+ out=\d+ {2}cost=- {2}alice {2}/);
    expect(cli(['usage', '--since', 'yesterday-ish']).status).toBe(2);
  });

  it.skipIf(skip)('gateway logs --follow prints what a server in another process appends', async () => {
    await entries();
    const child = spawn(process.execPath, [BIN, 'logs', '--follow', '--json', '--since', '1s', ...store.cli.args], { env: store.cli.env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      // Give it time to start following, then append through the server.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const id = await send('openai-chat', 'mock-echo', false);
      await gateway.server.requestLog!.flush();
      for (let tries = 0; tries < 100 && !output.includes(id); tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(output).toContain(`"request_id":"${id}"`);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

const ENTRY_FIELDS = [
  'request_id', 'time', 'user', 'protocol', 'endpoint', 'model', 'upstream', 'attempts', 'mode', 'status', 'stream', 'duration_ms', 'ttfb_ms',
  'input_tokens', 'output_tokens', 'cached_tokens', 'cache_write_tokens', 'reasoning_tokens', 'cost_usd', 'interrupted_reason', 'resumed_from', 'warnings', 'user_agent',
];
