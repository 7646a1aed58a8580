import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRequestLog } from '../src/log/request-log.js';
import { startCutRig, type CutRig } from './helpers/cut-rig.js';
import { startTestGateway } from './helpers/test-gateway.js';

/**
 * Resume on retry (docs/recoveries.md): a client whose connection was cut asks again with the same
 * body, and gets the generation it already paid for, from its recovery record, without a second
 * upstream request. The clients are the official SDKs of the four protocols, the cut is a TCP
 * proxy breaking the connection mid-stream, and the upstream is a slow OpenAI-style model that
 * counts what it is asked.
 */
const PIECES = ['The', ' gateway', ' kept', ' every', ' word', ' of', ' this', ' answer', ' for', ' you', '.'];
const TEXT = PIECES.join('');
const PIECE_MS = 60;

let rig: CutRig;
beforeAll(async () => {
  rig = await startCutRig(PIECES, PIECE_MS);
});
afterAll(async () => {
  await rig?.close();
});

/** One streaming turn of each official SDK, with a fixed body: a retry sends the same one. */
const CLIENTS: Record<string, (baseURL: string, key: string) => () => Promise<string>> = {
  'openai-chat': (baseURL, key) => {
    const client = new OpenAI({ apiKey: key, baseURL: `${baseURL}/v1`, maxRetries: 0 });
    return async () => (await client.chat.completions.stream({ model: 'slow', messages: [{ role: 'user', content: 'Tell me.' }] }).finalChatCompletion()).choices[0].message.content ?? '';
  },
  'openai-responses': (baseURL, key) => {
    const client = new OpenAI({ apiKey: key, baseURL: `${baseURL}/v1`, maxRetries: 0 });
    return async () => (await client.responses.stream({ model: 'slow', input: 'Tell me.' }).finalResponse()).output_text;
  },
  'anthropic-messages': (baseURL, key) => {
    const client = new Anthropic({ apiKey: key, baseURL, maxRetries: 0 });
    return async () =>
      (await client.messages.stream({ model: 'slow', max_tokens: 100, messages: [{ role: 'user', content: 'Tell me.' }] }).finalMessage()).content
        .flatMap((block) => (block.type === 'text' ? [block.text] : []))
        .join('');
  },
  gemini: (baseURL, key) => {
    const client = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: baseURL } });
    return async () => {
      let text = '';
      for await (const chunk of await client.models.generateContentStream({ model: 'slow', contents: 'Tell me.' })) text += chunk.text ?? '';
      return text;
    };
  },
};

async function records(key: string): Promise<any[]> {
  const response = await fetch(`${rig.gateway.url}/v1/recoveries`, { headers: { authorization: `Bearer ${key}` } });
  return ((await response.json()) as any).items;
}

describe.each(Object.keys(CLIENTS))('%s: a stream cut mid-way, then the same request again', (protocol) => {
  it('joins the drain in progress: the whole text, one upstream request', async () => {
    const key = `sk-join-${protocol}`;
    const ask = CLIENTS[protocol](rig.proxy.url, key);
    const before = rig.upstream.requests;
    const draining = rig.gateway.nextDraining();
    rig.proxy.cutNext('cut-after-body');
    await expect(ask()).rejects.toThrow();
    const record = await draining;
    // The retry arrives while the upstream is still generating.
    expect(rig.upstream.requests).toBe(before + 1);
    const done = rig.gateway.nextRecord();
    expect(await ask()).toBe(TEXT);
    expect(rig.upstream.requests).toBe(before + 1);
    await done;
    const [stored] = await records(key);
    expect(stored).toMatchObject({ request_id: record.requestId, state: 'complete' });
    expect(stored.resumed_by).toMatch(/\S/);
    // A third identical request goes rig.upstream.
    expect(await ask()).toBe(TEXT);
    expect(rig.upstream.requests).toBe(before + 2);
  });

  it('after the drain completed: answered from the record, one upstream request', async () => {
    const key = `sk-done-${protocol}`;
    const ask = CLIENTS[protocol](rig.proxy.url, key);
    const before = rig.upstream.requests;
    const done = rig.gateway.nextRecord();
    rig.proxy.cutNext('cut-after-body');
    await expect(ask()).rejects.toThrow();
    const record = await done;
    expect(await ask()).toBe(TEXT);
    expect(rig.upstream.requests).toBe(before + 1);
    // The resume is noted on the record in the background.
    for (let tries = 0; tries < 50 && (await records(key))[0]?.resumed_by === undefined; tries += 1) await sleep(20);
    const [stored] = await records(key);
    expect(stored).toMatchObject({ request_id: record.requestId });
    expect(stored.resumed_by).toMatch(/\S/);
    // The retry's request log entry says which record answered it, and that no model did.
    await rig.gateway.server.requestLog!.flush();
    const entry = (await readRequestLog(rig.gateway.logDirectory)).find((candidate) => candidate.request_id === stored.resumed_by);
    expect(entry).toMatchObject({ resumed_from: record.requestId, upstream: null, status: 200, protocol });
  });
});

describe('non-stream: the SDK retries by itself after a reset connection', () => {
  it('OpenAI maxRetries gets the full response, the upstream saw one request', async () => {
    const client = new OpenAI({ apiKey: 'sk-sdk-retry', baseURL: `${rig.proxy.url}/v1`, maxRetries: 2 });
    const before = rig.upstream.requests;
    rig.proxy.cutNext('reset-before-response');
    const cuts = rig.proxy.cuts;
    const completion = await client.chat.completions.create({ model: 'slow', messages: [{ role: 'user', content: 'Tell me.' }] });
    expect(rig.proxy.cuts).toBe(cuts + 1);
    expect(completion.choices[0].message.content).toBe(TEXT);
    expect(rig.upstream.requests).toBe(before + 1);
  });

  it('Anthropic maxRetries gets the full response, the upstream saw one request', async () => {
    const client = new Anthropic({ apiKey: 'sk-sdk-retry-anthropic', baseURL: rig.proxy.url, maxRetries: 2 });
    const before = rig.upstream.requests;
    rig.proxy.cutNext('reset-before-response');
    const message = await client.messages.create({ model: 'slow', max_tokens: 100, messages: [{ role: 'user', content: 'Tell me.' }] });
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: TEXT })]);
    expect(rig.upstream.requests).toBe(before + 1);
  });
});

describe('what never resumes', () => {
  const body = JSON.stringify({ model: 'slow', stream: true, messages: [{ role: 'user', content: 'Once more.' }] });
  const send = (key: string, headers: Record<string, string> = {}) =>
    fetch(`${rig.gateway.url}/v1/chat/completions`, { method: 'POST', body, headers: Object.assign({ authorization: `Bearer ${key}`, 'content-type': 'application/json' }, headers) });
  /** A stream the client leaves after its first read; settles once its drained record is complete. */
  async function interrupted(key: string): Promise<string> {
    const controller = new AbortController();
    const response = await fetch(`${rig.gateway.url}/v1/chat/completions`, { method: 'POST', body, signal: controller.signal, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
    const id = response.headers.get('x-request-id')!;
    await response.body!.getReader().read();
    controller.abort();
    for (let tries = 0; tries < 100 && !(await records(key)).some((record) => record.request_id === id && record.state === 'complete'); tries += 1) await sleep(20);
    return id;
  }

  it('another user with the identical body goes upstream', async () => {
    const id = await interrupted('sk-owner');
    const before = rig.upstream.requests;
    const response = await send('sk-stranger');
    await response.text();
    expect(response.headers.get('x-switchyard-resumed')).toBeNull();
    expect(rig.upstream.requests).toBe(before + 1);
    // The owner's record is still unused: the owner's own retry is answered from it.
    const own = await send('sk-owner');
    expect(own.headers.get('x-switchyard-resumed')).toBe(id);
    expect(await own.text()).toContain('[DONE]');
    expect(rig.upstream.requests).toBe(before + 1);
  });

  it('x-switchyard-resume: off goes upstream and leaves the record unused', async () => {
    const id = await interrupted('sk-header');
    const before = rig.upstream.requests;
    const off = await send('sk-header', { 'x-switchyard-resume': 'off' });
    await off.text();
    expect(off.headers.get('x-switchyard-resumed')).toBeNull();
    expect(rig.upstream.requests).toBe(before + 1);
    const on = await send('sk-header');
    expect(on.headers.get('x-switchyard-resumed')).toBe(id);
    await on.text();
    expect(rig.upstream.requests).toBe(before + 1);
  });

  it('recoveries.resume: false goes upstream', async () => {
    const other = await startTestGateway({ recoveries: { resume: false }, providers: { slow: { type: 'openai-chat', baseURL: `${rig.upstream.url}/v1`, apiKey: 'k', models: ['slow'], discoverModels: false } } });
    try {
      const controller = new AbortController();
      const done = other.nextRecord();
      const response = await fetch(`${other.url}/v1/chat/completions`, { method: 'POST', body, signal: controller.signal, headers: { authorization: 'Bearer sk-config', 'content-type': 'application/json' } });
      await response.body!.getReader().read();
      controller.abort();
      await done;
      const before = rig.upstream.requests;
      const retry = await fetch(`${other.url}/v1/chat/completions`, { method: 'POST', body, headers: { authorization: 'Bearer sk-config', 'content-type': 'application/json' } });
      await retry.text();
      expect(retry.headers.get('x-switchyard-resumed')).toBeNull();
      expect(rig.upstream.requests).toBe(before + 1);
    } finally {
      await other.close();
    }
  });
});
