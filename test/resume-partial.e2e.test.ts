import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/parse-config.js';
import type { RecoverySummary } from '../src/recoveries/recovery-record.js';
import { openRecoveryStore, type FileRecoveryStore } from '../src/recoveries/recovery-store.js';
import { createLogger } from '../src/server/create-logger.js';
import { startServer, type RunningServer } from '../src/server/start-server.js';

/**
 * Resume on retry (docs/recoveries.md) never answers from a partial record: when the drain failed,
 * timed out, was cancelled or stopped by a shutdown, the identical retry goes upstream and the
 * record stays unused, on the same server and on one restarted over the same store. A complete
 * record made before a restart still answers.
 */
const PIECES = ['Every', ' word', ' of', ' this', ' answer', ' came', ' from', ' the', ' upstream', '.'];
const TEXT = PIECES.join('');
const PIECE_MS = 50;

/** How the upstream answers one streaming request. */
type Behaviour = 'whole' | 'fail-midway' | 'stall-midway';

/** An OpenAI-style upstream streaming PIECES; the next requests behave as `plan` says, then `whole`. */
class ScriptedUpstream {
  readonly server: Server;
  requests = 0;
  readonly plan: Behaviour[] = [];

  constructor() {
    this.server = createServer(async (request, response) => {
      for await (const _ of request);
      this.requests += 1;
      const behaviour = this.plan.shift() ?? 'whole';
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-s', object: 'chat.completion.chunk', created: 1, model: 'scripted', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      for (const [index, piece] of PIECES.entries()) {
        if (response.destroyed) return;
        if (index === 3 && behaviour === 'fail-midway') return void response.socket?.destroy();
        // Long past every timeout the tests set; the gateway's abort or the close ends it.
        if (index === 3 && behaviour === 'stall-midway') return void (await sleep(5000));
        response.write(chunk(index === 0 ? { role: 'assistant', content: piece } : { content: piece }));
        await sleep(PIECE_MS);
      }
      response.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
    });
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

let upstream: ScriptedUpstream;
beforeAll(async () => {
  upstream = new ScriptedUpstream();
  await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  upstream.server.closeAllConnections();
  await new Promise((resolve) => upstream.server.close(resolve));
});

/** A server over the recoveries store in `home`, which a restart opens again. */
interface Gateway {
  url: string;
  server: RunningServer;
  store: FileRecoveryStore;
}

async function startGateway(home: string, raw: Record<string, unknown> = {}): Promise<Gateway> {
  const config = parseConfig(
    Object.assign({ providers: { scripted: Object.assign({ type: 'openai-chat', baseURL: `${upstream.url}/v1`, apiKey: 'k', models: ['scripted'], discoverModels: false }, raw.provider) } }, raw.config),
    {},
  );
  const store = await openRecoveryStore({ directory: join(home, 'recoveries') });
  const server = await startServer({ config, logger: createLogger({ write: () => undefined }), recoveryStore: store, host: '127.0.0.1', port: 0 });
  return { url: server.url, server, store };
}

async function stopGateway(gateway: Gateway, graceMs = 1000): Promise<void> {
  await gateway.server.close(graceMs);
  await gateway.store.close();
}

const BODY = JSON.stringify({ model: 'scripted', stream: true, messages: [{ role: 'user', content: 'Tell me everything.' }] });

function send(gateway: Gateway, key: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', body: BODY, signal, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
}

/** A stream its client leaves after the first read: the request id of the generation. */
async function leaveAfterFirstRead(gateway: Gateway, key: string): Promise<string> {
  const controller = new AbortController();
  const response = await send(gateway, key, controller.signal);
  const id = response.headers.get('x-request-id')!;
  await response.body!.getReader().read();
  controller.abort();
  return id;
}

/** The record once it is in `state` (bounded wait: 200 × 25 ms). */
async function recordOf(gateway: Gateway, id: string, state: RecoverySummary['state'] = 'complete'): Promise<RecoverySummary> {
  for (let tries = 0; tries < 200; tries += 1) {
    const found = (await gateway.store.list()).find((summary) => summary.request_id === id && summary.state === state);
    if (found) return found;
    await sleep(25);
  }
  throw new Error(`no ${state} record ${id}`);
}

/** The retry: what its client read, and whether it was answered from a record. */
async function retry(gateway: Gateway, key: string): Promise<{ resumed: string | null; text: string }> {
  const response = await send(gateway, key);
  const resumed = response.headers.get('x-switchyard-resumed');
  let text = '';
  for (const line of (await response.text()).split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    text += JSON.parse(line.slice(6)).choices?.[0]?.delta?.content ?? '';
  }
  return { resumed, text };
}

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'switchyard-resume-partial-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

/**
 * Each partial case: the generation is interrupted and ends partial; the identical retry goes
 * upstream and gets the whole answer; the record stays unused; a server restarted over the same
 * store sends the retry upstream too.
 */
const PARTIAL_CASES: Array<{ name: string; raw?: Record<string, unknown>; plan: Behaviour[]; reason: string }> = [
  { name: 'the upstream failed mid-stream during the drain', plan: ['fail-midway'], reason: 'client_disconnected' },
  { name: 'the upstream timed out mid-stream during the drain', raw: { provider: { timeoutMs: 300 } }, plan: ['stall-midway'], reason: 'client_disconnected' },
  { name: 'the drain timeout stopped the drain', raw: { config: { recoveries: { drainTimeoutMs: 100 } } }, plan: ['whole'], reason: 'client_disconnected' },
  { name: 'the disconnect policy is cancel', raw: { config: { recoveries: { onDisconnect: 'cancel' } } }, plan: ['whole'], reason: 'client_disconnected' },
];

describe.each(PARTIAL_CASES)('a partial record: $name', ({ name, raw, plan, reason }) => {
  it('the identical retry goes upstream, the record stays unused, on this server and after a restart', async () => {
    const folder = join(home, name.replace(/\W+/g, '-'));
    const key = `sk-${name.replace(/\W+/g, '-')}`;
    let gateway = await startGateway(folder, raw);
    try {
      upstream.plan.push(...plan);
      const before = upstream.requests;
      const id = await leaveAfterFirstRead(gateway, key);
      const record = await recordOf(gateway, id);
      expect(record.interrupted_reason).toBe(reason);
      expect((await gateway.store.get(id))?.error_message).toMatch(/\S/);
      expect(upstream.requests).toBe(before + 1);

      const again = await retry(gateway, key);
      expect(again).toEqual({ resumed: null, text: TEXT });
      expect(upstream.requests).toBe(before + 2);
      expect((await gateway.store.get(id))?.resumed_by).toBeUndefined();

      await stopGateway(gateway);
      gateway = await startGateway(folder, raw);
      const restarted = await retry(gateway, key);
      expect(restarted).toEqual({ resumed: null, text: TEXT });
      expect(upstream.requests).toBe(before + 3);
      expect((await gateway.store.get(id))?.resumed_by).toBeUndefined();
    } finally {
      await stopGateway(gateway);
    }
  });
});

describe('across a restart', () => {
  it('a drain the shutdown stopped (server_shutdown) is partial: the retry after the restart goes upstream', async () => {
    const folder = join(home, 'shutdown');
    const key = 'sk-shutdown';
    let gateway = await startGateway(folder);
    try {
      const before = upstream.requests;
      const id = await leaveAfterFirstRead(gateway, key);
      await recordOf(gateway, id, 'draining');
      // No grace: the drain still running is stopped and recorded by the shutdown.
      expect(await gateway.server.close(0)).toMatchObject({ stopped: 1 });
      await gateway.store.close();
      gateway = await startGateway(folder);
      expect(await recordOf(gateway, id)).toMatchObject({ interrupted_reason: 'server_shutdown' });
      expect(await retry(gateway, key)).toEqual({ resumed: null, text: TEXT });
      expect(upstream.requests).toBe(before + 2);
      expect((await gateway.store.get(id))?.resumed_by).toBeUndefined();
    } finally {
      await stopGateway(gateway);
    }
  });

  it('a complete record made before the restart answers the retry after it, once', async () => {
    const folder = join(home, 'complete');
    const key = 'sk-complete';
    let gateway = await startGateway(folder);
    try {
      const before = upstream.requests;
      const id = await leaveAfterFirstRead(gateway, key);
      await recordOf(gateway, id);
      await stopGateway(gateway);
      gateway = await startGateway(folder);
      // Asked at once: a request that arrives while the store is still being read waits for it.
      let answer = await retry(gateway, key);
      expect(answer).toEqual({ resumed: id, text: TEXT });
      expect(upstream.requests).toBe(before + 1);
      for (let tries = 0; tries < 100 && (await gateway.store.get(id))?.resumed_by === undefined; tries += 1) await sleep(20);
      expect((await gateway.store.get(id))?.resumed_by).toMatch(/\S/);
      // A third identical request goes upstream.
      answer = await retry(gateway, key);
      expect(answer).toEqual({ resumed: null, text: TEXT });
      expect(upstream.requests).toBe(before + 2);
    } finally {
      await stopGateway(gateway);
    }
  });
});
