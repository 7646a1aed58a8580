import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../src/log/request-log.js';
import { RoundRobinProxy } from './helpers/round-robin-proxy.js';
import { serveChild, type Child } from './helpers/serve-child.js';
import { api, interrupt, KEY, until } from './helpers/team-requests.js';
import { createTestDatabase, DATABASE_URL, NO_DATABASE_REASON, type TestDatabase } from './helpers/test-database.js';

/**
 * Team mode as a team runs it (docs/team.md): two `gateway serve` processes on one PostgreSQL,
 * behind a load balancer that sends each request to the next instance. Whichever instance a
 * request lands on, the records, the resume of a retry and the request log are the same.
 */
const BIN = fileURLToPath(new URL('../bin/gateway.js', import.meta.url));

/** How long an instance takes at most to learn of the other's records (it looks once a second). */
const LEARN_MS = 1500;

describe.skipIf(!DATABASE_URL)('two instances behind a round-robin proxy', () => {
  let database: TestDatabase;
  let home: string;
  let configPath: string;
  const instances: Child[] = [];
  let proxy: RoundRobinProxy;

  beforeAll(async () => {
    database = await createTestDatabase();
    home = await mkdtemp(join(tmpdir(), 'switchyard-team-rr-'));
    configPath = join(home, 'config.json');
    await writeFile(
      configPath,
      JSON.stringify({
        // `slower/mock-slow` takes 6 s: long enough to follow another instance's drain while it runs.
        providers: { mock: { type: 'mock', slowIntervalMs: 30, slowPieces: 60 }, slower: { type: 'mock', slowIntervalMs: 100, slowPieces: 60 } },
        store: { type: 'postgres', url: '$TEAM_DATABASE_URL' },
      }),
    );
    instances.push(...(await Promise.all([serveChild(configPath, home, database.url), serveChild(configPath, home, database.url)])));
    proxy = new RoundRobinProxy(instances.map((instance) => instance.url));
    await proxy.listen();
  });
  afterAll(async () => {
    await proxy?.close();
    for (const instance of instances) instance.process.kill('SIGKILL');
    await database?.drop();
    await rm(home, { recursive: true, force: true });
  });

  const client = () => new OpenAI({ apiKey: KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
  const streamed = async (body: OpenAI.Chat.ChatCompletionCreateParamsStreaming) => {
    const { data: stream, response } = await client().chat.completions.create(body).withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    return { text, instance: response.headers.get('x-test-instance'), resumed: response.headers.get('x-switchyard-resumed'), requestId: response.headers.get('x-request-id')! };
  };
  const contentOf = (record: { response: { body_raw: string } }) => JSON.parse(record.response.body_raw).choices[0].message.content as string;

  it('interrupted on one instance: listed, looked up and fetched through either, and a retry on the other is answered from it, once', async () => {
    const body = { model: 'mock-slow', stream: true as const, messages: [{ role: 'user' as const, content: 'cut on the first instance' }] };
    proxy.nextInstance = 0;
    const requestId = await interrupt(proxy.url, body);
    const complete = await until(() => api(proxy.url, `/v1/recoveries/${requestId}`), ({ body: record }) => record.state === 'complete');
    expect(complete.body).toMatchObject({ request_id: requestId, state: 'complete', interrupted_reason: 'client_disconnected' });
    // Two lookups in a row land on the two instances: both find it.
    for (const instance of ['0', '1']) {
      proxy.nextInstance = Number(instance);
      const found = await api(proxy.url, '/v1/recoveries/lookup', { method: 'POST', body: JSON.stringify(body) });
      expect(found.body.items.map((item: { request_id: string }) => item.request_id), `lookup on instance ${instance}`).toEqual([requestId]);
    }

    await sleep(LEARN_MS);
    proxy.nextInstance = 1;
    const retry = await streamed(body);
    expect(retry).toMatchObject({ instance: '1', resumed: requestId });
    expect(retry.text).toBe(contentOf(complete.body));
    expect(retry.text.split(' ')).toHaveLength(60);
    const marked = await until(() => api(proxy.url, `/v1/recoveries/${requestId}`), ({ body: record }) => record.resumed_by !== undefined);
    expect(marked.body.resumed_by).toBe(retry.requestId);
    // Used once: a third identical request, on either instance, goes upstream.
    for (const instance of [0, 1]) {
      proxy.nextInstance = instance;
      expect((await streamed(body)).resumed).toBeNull();
    }
  });

  it('a streaming retry on the other instance while the first still drains follows that drain live, to the whole answer', async () => {
    const body = { model: 'slower/mock-slow', stream: true as const, messages: [{ role: 'user' as const, content: 'follow me from afar' }] };
    proxy.nextInstance = 0;
    const requestId = await interrupt(proxy.url, body);
    // The second instance learns of the drain while it runs (60 pieces at 100 ms: about 6 s).
    await sleep(LEARN_MS);
    proxy.nextInstance = 1;
    const { data: stream, response } = await client().chat.completions.create(body).withResponse();
    expect(response.headers.get('x-test-instance')).toBe('1');
    expect(response.headers.get('x-switchyard-resumed')).toBe(requestId);
    let text = '';
    let stateAtFirstText: string | undefined;
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta.content ?? '';
      if (piece && stateAtFirstText === undefined) stateAtFirstText = (await api(instances[0].url, `/v1/recoveries/${requestId}`)).body.state;
      text += piece;
    }
    // Its first words came while the first instance was still generating the rest.
    expect(stateAtFirstText).toBe('draining');
    const record = await until(() => api(instances[0].url, `/v1/recoveries/${requestId}`), ({ body: stored }) => stored.state === 'complete');
    expect(record.body).toMatchObject({ state: 'complete', resumed_by: response.headers.get('x-request-id') });
    expect(text).toBe(contentOf(record.body));
    expect(text.split(' ')).toHaveLength(60);
  });

  it('two identical retries at once on the two instances: one is answered from the record, the other goes upstream', async () => {
    const body = { model: 'mock-slow', stream: true as const, messages: [{ role: 'user' as const, content: 'only one of you' }] };
    proxy.nextInstance = 0;
    const requestId = await interrupt(proxy.url, body);
    await until(() => api(instances[1].url, `/v1/recoveries/${requestId}`), ({ body: record }) => record.state === 'complete');
    await sleep(LEARN_MS);

    proxy.nextInstance = 0;
    const retries = await Promise.all([streamed(body), streamed(body)]);
    expect(retries.map((retry) => retry.instance).sort()).toEqual(['0', '1']);
    const resumed = retries.filter((retry) => retry.resumed === requestId);
    expect(resumed).toHaveLength(1);
    const record = await api(proxy.url, `/v1/recoveries/${requestId}`);
    expect(record.body.resumed_by).toBe(resumed[0].requestId);
    // Both clients got a whole answer all the same.
    for (const retry of retries) expect(retry.text.split(' ')).toHaveLength(60);
  });

  it('keeps one request log for both: gateway logs and gateway usage read every instance\'s requests', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      const answer = await client().chat.completions.create({ model: 'mock-echo', messages: [{ role: 'user', content: `logged ${index}` }] }).withResponse();
      ids.push(answer.response.headers.get('x-request-id')!);
    }
    const env = { PATH: process.env.PATH, SWITCHYARD_HOME: home, TEAM_DATABASE_URL: database.url };
    // Entries are written a little after the response (in batches, every 100 ms).
    const printed = await until(
      async () => spawnSync(process.execPath, [BIN, 'logs', '--json'], { encoding: 'utf8', env }).stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as RequestLogEntry),
      (entries) => ids.every((id) => entries.some((entry) => entry.request_id === id)),
    );
    for (const id of ids) expect(printed.filter((entry) => entry.request_id === id)).toHaveLength(1);
    const usage = spawnSync(process.execPath, [BIN, 'usage', '--by', 'model', '--json'], { encoding: 'utf8', env });
    expect(usage.status, usage.stderr).toBe(0);
    expect(JSON.parse(usage.stdout).total.requests).toBe(printed.length);
    expect(usage.stdout + usage.stderr).not.toContain(new URL(database.url).password);
  });
});

describe.skipIf(DATABASE_URL)('two instances behind a round-robin proxy', () => {
  it.skip(NO_DATABASE_REASON, () => undefined);
});
