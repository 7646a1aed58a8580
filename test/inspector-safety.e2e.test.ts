import { request as httpRequest } from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly these headers (fetch would not let a test set `Host`). */
function send(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, method, path, headers, setHost: false, timeout: 10_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.end(body);
  });
}

const CHAT = JSON.stringify({ model: 'mock-echo', messages: [{ role: 'user', content: 'hello' }] });
const MESSAGES = JSON.stringify({ model: 'mock-echo', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] });

/** The page's token, as the page gets it at load. */
async function pageToken(gateway: TestGateway, headers: Record<string, string> = {}): Promise<string> {
  const page = await send(gateway.url, 'GET', '/ui', Object.assign({ host: new URL(gateway.url).host }, headers));
  expect(page.status).toBe(200);
  return /name="switchyard-page-token" content="([^"]+)"/.exec(page.body)![1];
}

describe('Host check (DNS rebinding)', () => {
  let gateway: TestGateway;
  let port: string;
  beforeAll(async () => {
    gateway = await startTestGateway({ server: { allowedHosts: ['gateway.lan', 'other.lan:8080'] } });
    port = new URL(gateway.url).port;
  });
  afterAll(() => gateway.close());

  it.each([
    ['a loopback name', () => `localhost:${port}`],
    ['the served address', () => `127.0.0.1:${port}`],
    ['a name in server.allowedHosts, on the gateway port', () => `gateway.lan:${port}`],
    ['a name:port in server.allowedHosts', () => 'other.lan:8080'],
    ['any letter case', () => `LocalHost:${port}`],
  ])('answers %s', async (_name, host) => {
    const chat = await send(gateway.url, 'POST', '/v1/chat/completions', { host: host(), authorization: 'Bearer sk-a', 'content-type': 'application/json' }, CHAT);
    expect(chat.status).toBe(200);
    expect(JSON.parse(chat.body).choices[0].message.content).toBe('hello');
    expect((await send(gateway.url, 'GET', '/ui', { host: host() })).status).toBe(200);
  });

  it.each([
    ['a rebinding name', () => `evil.example:${port}`],
    ['a name that starts with a loopback address', () => `127.0.0.1.evil.example:${port}`],
    ['a name that starts with localhost', () => `localhost.evil.example:${port}`],
    ['a loopback address on another port', () => `127.0.0.1:${Number(port) + 1}`],
    ['a loopback name without the port', () => 'localhost'],
    ['an allowed name on another port', () => `gateway.lan:${Number(port) + 1}`],
  ])('refuses %s on the generation endpoints, in their envelope, and on the page and its API', async (_name, host) => {
    const chat = await send(gateway.url, 'POST', '/v1/chat/completions', { host: host(), authorization: 'Bearer sk-a', 'content-type': 'application/json' }, CHAT);
    expect(chat.status).toBe(403);
    expect(JSON.parse(chat.body).error).toMatchObject({ type: expect.any(String), message: expect.stringContaining('server.allowedHosts') });
    const messages = await send(gateway.url, 'POST', '/v1/messages', { host: host(), 'x-api-key': 'sk-a', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, MESSAGES);
    expect(messages.status).toBe(403);
    expect(JSON.parse(messages.body)).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    const gemini = await send(gateway.url, 'POST', '/v1beta/models/mock-echo:generateContent', { host: host(), 'x-goog-api-key': 'sk-a', 'content-type': 'application/json' }, JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }));
    expect(gemini.status).toBe(403);
    expect(JSON.parse(gemini.body).error.status).toBe('PERMISSION_DENIED');
    for (const path of ['/ui', '/ui/api/requests', '/ui/assets/inspector.js', '/v1/models', '/v1/recoveries', '/health']) {
      expect((await send(gateway.url, 'GET', path, { host: host(), authorization: 'Bearer sk-a' })).status, path).toBe(403);
    }
  });

  it('refuses a request with no Host (Node itself answers 400 to HTTP/1.1 without one)', async () => {
    const answer = await send(gateway.url, 'GET', '/health', {});
    expect([400, 403]).toContain(answer.status);
  });
});

describe('the page API without keys', () => {
  let gateway: TestGateway;
  let host: string;
  let token: string;
  beforeAll(async () => {
    gateway = await startTestGateway({ providers: { mock: { type: 'mock' } } });
    host = new URL(gateway.url).host;
    token = await pageToken(gateway);
  });
  afterAll(() => gateway.close());

  it('serves the page offline: its own files only, under a strict content security policy', async () => {
    const page = await send(gateway.url, 'GET', '/ui', { host });
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.body).not.toMatch(/https?:\/\//);
    const script = await send(gateway.url, 'GET', '/ui/assets/inspector.js', { host });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    // Only the page's own files: no way up out of its folder.
    expect((await send(gateway.url, 'GET', '/ui/assets/%2e%2e%2f%2e%2e%2fpackage.json', { host })).status).toBe(404);
    expect((await send(gateway.url, 'GET', '/ui/assets/index.html', { host })).status).toBe(404);
  });

  it('answers its API only with the token of this launch', async () => {
    expect((await send(gateway.url, 'GET', '/ui/api/requests', { host })).status).toBe(403);
    expect((await send(gateway.url, 'GET', '/ui/api/requests', { host, 'x-switchyard-page-token': 'guessed' })).status).toBe(403);
    const other = await startTestGateway();
    try {
      expect(await pageToken(other)).not.toBe(token);
    } finally {
      await other.close();
    }
    const list = await send(gateway.url, 'GET', '/ui/api/requests', { host, 'x-switchyard-page-token': token });
    expect(list.status).toBe(200);
  });

  it('refuses reads from another origin', async () => {
    const answer = await send(gateway.url, 'GET', '/ui/api/requests', { host, 'x-switchyard-page-token': token, origin: 'http://evil.example' });
    expect(answer.status).toBe(403);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses state changes that are cross-site form posts, cross-origin, without Origin or without the token', async () => {
    const client = new OpenAI({ apiKey: 'sk-anyone-1', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'mock-cut', stream: true, messages: [{ role: 'user', content: 'x' }] });
    await expect((async () => {
      for await (const _chunk of stream) void _chunk;
    })()).rejects.toThrow();
    await expect.poll(async () => (await gateway.store.list()).length, { timeout: 5000 }).toBe(1);
    const [record] = await gateway.store.list();
    const deleteBody = JSON.stringify({ request_id: record.request_id });
    const origin = `http://${host}`;
    const refused: Array<[string, Record<string, string>, string, number]> = [
      ['a text/plain form post', { 'content-type': 'text/plain', origin, 'x-switchyard-page-token': token }, deleteBody, 415],
      ['an urlencoded form post', { 'content-type': 'application/x-www-form-urlencoded', origin, 'x-switchyard-page-token': token }, 'request_id=x', 415],
      ['no Origin', { 'content-type': 'application/json', 'x-switchyard-page-token': token }, deleteBody, 403],
      ['another Origin', { 'content-type': 'application/json', origin: 'http://evil.example', 'x-switchyard-page-token': token }, deleteBody, 403],
      ['the origin on another port', { 'content-type': 'application/json', origin: `http://127.0.0.1:${Number(new URL(gateway.url).port) + 1}`, 'x-switchyard-page-token': token }, deleteBody, 403],
      ['no token', { 'content-type': 'application/json', origin }, deleteBody, 403],
    ];
    for (const [name, headers, body, status] of refused) {
      const answer = await send(gateway.url, 'POST', '/ui/api/recoveries/delete', Object.assign({ host }, headers), body);
      expect(answer.status, name).toBe(status);
    }
    expect(await gateway.store.list()).toHaveLength(1);
    const deleted = await send(gateway.url, 'POST', '/ui/api/recoveries/delete', { host, origin, 'content-type': 'application/json', 'x-switchyard-page-token': token }, deleteBody);
    expect(deleted.status).toBe(200);
    expect(JSON.parse(deleted.body)).toEqual({ deleted: 1 });
    expect(await gateway.store.list()).toHaveLength(0);
  });
});

describe('the live feed', () => {
  it('sends the rows that changed, and a shutdown does not wait for an open page', async () => {
    const gateway = await startTestGateway();
    const host = new URL(gateway.url).host;
    const token = await pageToken(gateway);
    const { port } = new URL(gateway.url);
    const received: string[] = [];
    const feed = httpRequest({ host: '127.0.0.1', port, path: '/ui/api/feed', headers: { host, 'x-switchyard-page-token': token } });
    const ended = new Promise<void>((resolve) => {
      feed.on('response', (response) => {
        expect(response.headers['content-type']).toBe('text/event-stream');
        response.on('data', (chunk: Buffer) => received.push(chunk.toString('utf8')));
        response.on('end', resolve);
        response.on('error', () => resolve());
        response.on('close', resolve);
      });
      feed.on('error', () => resolve());
    });
    feed.end();
    await expect.poll(() => received.join('')).toContain(': connected');
    const chat = await send(gateway.url, 'POST', '/v1/chat/completions', { host, authorization: 'Bearer sk-feed-000000', 'content-type': 'application/json' }, CHAT);
    expect(chat.status).toBe(200);
    await expect.poll(() => received.join(''), { timeout: 5000 }).toContain('event: rows');
    const batch = JSON.parse(/data: (.*)/.exec(received.join('').split('event: rows\n')[1])![1]);
    expect(batch.rows).toEqual([expect.objectContaining({ request_id: JSON.parse(chat.body).id.replace(/^chatcmpl-/, ''), model: 'mock-echo', upstream: 'mock/mock-echo', status: 200, live: false, cost_usd: 0 })]);
    const closing = gateway.close();
    await ended;
    await closing;
  });
});

describe('what the inspector keeps', () => {
  it('keeps the last inspector.keep requests, with their bodies; 0 keeps none', async () => {
    for (const keep of [2, 0]) {
      const gateway = await startTestGateway({ inspector: { keep } });
      try {
        const host = new URL(gateway.url).host;
        const token = await pageToken(gateway);
        const ids: string[] = [];
        for (const content of ['one', 'two', 'three']) {
          const chat = await send(gateway.url, 'POST', '/v1/chat/completions', { host, authorization: 'Bearer sk-keep-000000', 'content-type': 'application/json' }, JSON.stringify({ model: 'mock-echo', messages: [{ role: 'user', content }] }));
          ids.push(chat.headers['x-request-id'] as string);
        }
        const api = (path: string) => send(gateway.url, 'GET', path, { host, 'x-switchyard-page-token': token });
        const rows = JSON.parse((await api('/ui/api/requests')).body).rows as { request_id: string }[];
        expect(rows.map((row) => row.request_id)).toEqual(keep === 2 ? [ids[2], ids[1]] : []);
        expect((await api(`/ui/api/requests/${ids[0]}`)).status).toBe(404);
        if (keep === 2) {
          const detail = JSON.parse((await api(`/ui/api/requests/${ids[2]}`)).body);
          expect(JSON.parse(detail.request_body).messages[0].content).toBe('three');
          expect(JSON.parse(detail.response_body).choices[0].message.content).toBe('three');
        }
      } finally {
        await gateway.close();
      }
    }
  });
});

describe('the page API with keys', () => {
  let gateway: TestGateway;
  let host: string;
  let token: string;
  const KEYS = { alice: 'sk-alice-0123456789', bob: 'sk-bob-0123456789', admin: 'sk-admin-0123456789' };
  beforeAll(async () => {
    gateway = await startTestGateway({
      keys: [
        { key: KEYS.alice, user: 'alice' },
        { key: KEYS.bob, user: 'bob' },
        { key: KEYS.admin, user: 'root', admin: true },
      ],
    });
    host = new URL(gateway.url).host;
    token = await pageToken(gateway);
    // Keys in every place a client puts them: none of them may come back from the page's API.
    const chat = await send(gateway.url, 'POST', '/v1/chat/completions', { host, authorization: `Bearer ${KEYS.alice}`, 'proxy-authorization': `Bearer ${KEYS.bob}`, 'content-type': 'application/json' }, CHAT);
    expect(chat.status).toBe(200);
    const messages = await send(gateway.url, 'POST', '/v1/messages', { host, 'x-api-key': KEYS.bob, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, MESSAGES);
    expect(messages.status).toBe(200);
    const gemini = await send(gateway.url, 'POST', `/v1beta/models/mock-echo:generateContent?key=${KEYS.alice}`, { host, 'content-type': 'application/json' }, JSON.stringify({ contents: [{ role: 'user', parts: [{ text: `my key is ${KEYS.bob}` }] }] }));
    expect(gemini.status).toBe(200);
    const google = await send(gateway.url, 'POST', '/v1beta/models/mock-echo:generateContent', { host, 'x-goog-api-key': KEYS.bob, 'content-type': 'application/json' }, JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }));
    expect(google.status).toBe(200);
  });
  afterAll(() => gateway.close());

  const api = (path: string, key?: string) => {
    const headers: Record<string, string> = { host, 'x-switchyard-page-token': token };
    if (key !== undefined) headers.authorization = `Bearer ${key}`;
    return send(gateway.url, 'GET', path, headers);
  };

  it('needs a key for the API, and an unknown key is refused', async () => {
    expect((await api('/ui/api/requests')).status).toBe(401);
    expect((await api('/ui/api/requests', 'sk-nobody-000000')).status).toBe(401);
  });

  it("shows a user's key that user's requests only, and an admin key all of them", async () => {
    const users = async (key: string) => (JSON.parse((await api('/ui/api/requests', key)).body).rows as { user: string }[]).map((row) => row.user).sort();
    expect(await users(KEYS.alice)).toEqual(['alice', 'alice']);
    expect(await users(KEYS.bob)).toEqual(['bob', 'bob']);
    expect(await users(KEYS.admin)).toEqual(['alice', 'alice', 'bob', 'bob']);
    const bobsRow = (JSON.parse((await api('/ui/api/requests', KEYS.bob)).body).rows as { request_id: string }[])[0];
    expect((await api(`/ui/api/requests/${bobsRow.request_id}`, KEYS.alice)).status).toBe(404);
    expect((await api(`/ui/api/requests/${bobsRow.request_id}`, KEYS.admin)).status).toBe(200);
    // The usage chart counts the same requests: each user's own, all of them for the admin.
    const requests = async (key: string) => (JSON.parse((await api('/ui/api/usage?days=7', key)).body).by_model as { requests: number }[]).reduce((sum, model) => sum + model.requests, 0);
    await expect.poll(() => requests(KEYS.admin)).toBe(4);
    expect(await requests(KEYS.alice)).toBe(2);
    expect(await requests(KEYS.bob)).toBe(2);
  });

  it('never shows a key, wherever the client put it', async () => {
    const texts: string[] = [];
    texts.push((await send(gateway.url, 'GET', '/ui', { host })).body);
    for (const path of ['/ui/api/session', '/ui/api/requests', '/ui/api/recoveries', '/ui/api/usage?days=7']) texts.push((await api(path, KEYS.admin)).body);
    for (const row of JSON.parse((await api('/ui/api/requests', KEYS.admin)).body).rows as { request_id: string }[]) {
      const detail = await api(`/ui/api/requests/${row.request_id}`, KEYS.admin);
      expect(detail.status).toBe(200);
      texts.push(detail.body);
    }
    const all = texts.join('\n');
    // The Gemini request above put bob's key in its own message: it shows redacted.
    expect(all).toContain('[redacted]');
    for (const key of Object.values(KEYS)) expect(all).not.toContain(key);
  });
});

describe('serving beyond loopback', () => {
  it('warns at start when no keys are configured', async () => {
    const { parseConfig } = await import('../src/config/parse-config.js');
    const { openRecoveryStore } = await import('../src/recoveries/recovery-store.js');
    const { createLogger } = await import('../src/server/create-logger.js');
    const { startServer } = await import('../src/server/start-server.js');
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const home = await mkdtemp(join(tmpdir(), 'switchyard-test-'));
    const logs: string[] = [];
    const start = async (raw: Record<string, unknown>) => {
      const store = await openRecoveryStore({ directory: join(home, `recoveries-${logs.length}-${Math.random()}`) });
      return startServer({ config: parseConfig(raw, {}), logger: createLogger({ write: (line) => logs.push(line) }), recoveryStore: store, host: '0.0.0.0', port: 0 });
    };
    try {
      const open = await start({});
      await open.close(100);
      expect(logs.join('\n')).toMatch(/serving on 0\.0\.0\.0.*no keys configured/);
      logs.length = 0;
      const keyed = await start({ keys: [{ key: 'sk-k-0123456789', user: 'u' }] });
      await keyed.close(100);
      expect(logs.join('\n')).not.toMatch(/no keys configured/);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
