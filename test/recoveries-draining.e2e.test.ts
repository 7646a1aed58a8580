import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Command } from 'commander';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRecoveriesCommand } from '../src/cli/recoveries-command.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';
import { pollUntil } from './helpers/poll-until.js';

/**
 * A drain seen while it runs: the client leaves, the gateway keeps reading an upstream that
 * answers only when the test lets it, and meanwhile the API, lookup and the CLI show the record
 * as draining, with what has arrived so far; at the end the same record is complete.
 */
const PIECES = ['Once', ' upon', ' a', ' time', ' there', ' was', ' a', ' gateway.'];

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-held', object: 'chat.completion.chunk', created: 1, model: 'held', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
}

/** An OpenAI-style upstream that sends pieces only as the test releases them (each release bounded in time). */
class HeldUpstream {
  readonly server: Server;
  #released = 0;
  #wake: (() => void) | undefined;

  constructor() {
    this.server = createServer(async (request, response) => {
      for await (const _ of request);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let index = 0; index < PIECES.length; index += 1) {
        // Never waits for ever: at worst the stream ends on its own after 20 s.
        for (let waited = 0; index >= this.#released && waited < 400; waited += 1) await Promise.race([new Promise<void>((resolve) => (this.#wake = resolve)), sleep(50)]);
        if (response.destroyed) return;
        response.write(chunk(index === 0 ? { role: 'assistant', content: PIECES[index] } : { content: PIECES[index] }));
      }
      response.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
    });
  }

  /** The next request starts with nothing released. */
  reset(): void {
    this.#released = 0;
  }

  release(count: number): void {
    this.#released = Math.min(PIECES.length, this.#released + count);
    this.#wake?.();
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

let upstream: HeldUpstream;
let gateway: TestGateway;
beforeAll(async () => {
  upstream = new HeldUpstream();
  await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
  gateway = await startTestGateway({ providers: { held: { type: 'openai-chat', baseURL: `${upstream.url}/v1`, models: ['held'], discoverModels: false } } });
});
afterAll(async () => {
  upstream.release(PIECES.length);
  await gateway.close();
  await new Promise((resolve) => upstream.server.close(resolve));
});

function api(path: string, init: RequestInit = {}) {
  return fetch(`${gateway.url}${path}`, { ...init, headers: { authorization: 'Bearer sk-alice', 'content-type': 'application/json' } }).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as any,
  }));
}


/** `gateway recoveries ls` in-process, on the gateway's store. */
async function cliLs(args: string[]): Promise<string> {
  const output: string[] = [];
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  stdin.end();
  const program = new Command('gateway').exitOverride();
  registerRecoveriesCommand(program, {
    stdout: { write: (text: string) => output.push(text), isTTY: false },
    stderr: { write: (text: string) => output.push(text), isTTY: false },
    stdin,
    env: { SWITCHYARD_HOME: dirname(gateway.store.directory) },
    now: Date.now,
    setExitCode: () => undefined,
    exit: (code) => {
      throw new Error(`exit ${code}`);
    },
  });
  await program.parseAsync(['recoveries', 'ls', ...args], { from: 'user' });
  return output.join('');
}

const contentOf = (record: any): string => JSON.parse(record.response.body_raw).choices[0].message.content;

describe('a drain in progress', () => {
  it('is a draining record from the disconnect on, growing, then the same record complete', async () => {
    const body = { model: 'held', stream: true as const, messages: [{ role: 'user' as const, content: 'a story, slowly' }] };
    const client = new OpenAI({ apiKey: 'sk-alice', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    upstream.reset();
    upstream.release(2);
    const { data: stream, response } = await client.chat.completions.create(body).withResponse();
    const requestId = response.headers.get('x-request-id')!;
    const iterator = stream[Symbol.asyncIterator]();
    let seen = '';
    while (seen !== 'Once upon') seen += (await iterator.next()).value?.choices[0]?.delta?.content ?? '';
    const draining = gateway.nextDraining();
    const leftAt = Math.floor(Date.now() / 1000);
    stream.controller.abort();
    await draining;
    const openedBy = Math.floor(Date.now() / 1000);

    const list = await pollUntil(() => api('/v1/recoveries'), ({ body }) => body.items.some((item: any) => item.request_id === requestId));
    const item = list.body.items.find((candidate: any) => candidate.request_id === requestId);
    expect(item).toMatchObject({ request_id: requestId, interrupted_reason: 'client_disconnected', state: 'draining' });
    expect(item.created_at).toBeGreaterThanOrEqual(leftAt);
    expect(item.created_at).toBeLessThanOrEqual(openedBy);
    const lookup = await api('/v1/recoveries/lookup', { method: 'POST', body: JSON.stringify(body) });
    expect(lookup.body.items).toEqual([expect.objectContaining({ request_id: requestId, state: 'draining', created_at: item.created_at })]);

    const partial = await api(`/v1/recoveries/${requestId}`);
    expect(partial.body).toMatchObject({ request_id: requestId, state: 'draining', created_at: item.created_at });
    expect(contentOf(partial.body)).toBe('Once upon');
    expect(await cliLs([])).toMatch(new RegExp(`^${requestId} .* client_disconnected +draining `, 'm'));
    expect(JSON.parse(await cliLs(['--json'])).items).toEqual([expect.objectContaining({ request_id: requestId, state: 'draining' })]);

    // More arrives while nobody reads it: the record follows.
    upstream.release(2);
    const grown = await pollUntil(() => api(`/v1/recoveries/${requestId}`), ({ body }) => contentOf(body) !== 'Once upon');
    expect(grown.body.state).toBe('draining');
    expect(contentOf(grown.body)).toBe('Once upon a time');
    expect(grown.body.response.response_body_size).toBe(Buffer.byteLength(grown.body.response.body_raw));

    const completed = gateway.nextRecord();
    upstream.release(PIECES.length);
    await completed;
    const final = await api(`/v1/recoveries/${requestId}`);
    expect(final.body).toMatchObject({ request_id: requestId, state: 'complete', interrupted_reason: 'client_disconnected', created_at: item.created_at });
    expect(contentOf(final.body)).toBe(PIECES.join(''));
    expect(JSON.parse(final.body.response.body_raw).choices[0].finish_reason).toBe('stop');
    const after = await api('/v1/recoveries');
    expect(after.body.items.filter((candidate: any) => candidate.request_id === requestId)).toEqual([expect.objectContaining({ state: 'complete' })]);
    expect(await cliLs([])).toMatch(new RegExp(`^${requestId} .* client_disconnected +complete `, 'm'));
  });

  it('under cancel, makes the record once, complete, at the end', async () => {
    const client = new OpenAI({ apiKey: 'sk-alice', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    upstream.reset();
    upstream.release(1);
    const recorded = gateway.nextRecord();
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'held', stream: true, messages: [{ role: 'user', content: 'cancel' }] }, { headers: { 'x-switchyard-on-disconnect': 'cancel' } })
      .withResponse();
    await stream[Symbol.asyncIterator]().next();
    stream.controller.abort();
    await recorded;
    const requestId = response.headers.get('x-request-id');
    const record = await api(`/v1/recoveries/${requestId}`);
    expect(record.body).toMatchObject({ state: 'complete', interrupted_reason: 'client_disconnected' });
    expect(contentOf(record.body)).toBe('Once');
    expect((await api('/v1/recoveries')).body.items.filter((item: any) => item.request_id === requestId)).toHaveLength(1);
  });
});
