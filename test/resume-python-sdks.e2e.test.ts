import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCuttingProxy, type CuttingProxy } from './helpers/cutting-proxy.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

/**
 * Resume on retry (docs/recoveries.md) with the official Python SDKs: a streaming request cut
 * mid-stream by a TCP proxy, then the same request again, as a program does after the error. The
 * retry gets the whole answer and the upstream sees one request. Without Python or its SDKs the
 * test is skipped: `python3 -m pip install openai anthropic google-genai`.
 */
const SCRIPT = fileURLToPath(new URL('./python/resume-after-cut.py', import.meta.url));
const run = promisify(execFile);

async function pythonSdksMissing(): Promise<string | undefined> {
  try {
    await run('python3', ['-c', 'import openai, anthropic; from google import genai'], { timeout: 60_000 });
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code === 'ENOENT' ? 'python3 is not installed' : 'the Python SDKs are not installed (python3 -m pip install openai anthropic google-genai)';
  }
}

const missing = await pythonSdksMissing();
if (missing) console.log(`resume-python-sdks.e2e: skipped, ${missing}`);

const PIECES = ['Python', ' clients', ' get', ' the', ' answer', ' they', ' already', ' paid', ' for', '.'];
const TEXT = PIECES.join('');
const PIECE_MS = 60;

/** An OpenAI-style upstream that streams PIECES slowly and counts what it is asked. */
class SlowUpstream {
  readonly server: Server;
  requests = 0;

  constructor() {
    this.server = createServer(async (request, response) => {
      for await (const _ of request);
      this.requests += 1;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-slow', object: 'chat.completion.chunk', created: 1, model: 'slow', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      for (const [index, piece] of PIECES.entries()) {
        if (response.destroyed) return;
        response.write(chunk(index === 0 ? { role: 'assistant', content: piece } : { content: piece }));
        await sleep(PIECE_MS);
      }
      const usage = { prompt_tokens: 4, completion_tokens: PIECES.length, total_tokens: 4 + PIECES.length };
      response.end(`${chunk({}, 'stop')}data: ${JSON.stringify({ id: 'chatcmpl-slow', object: 'chat.completion.chunk', created: 1, model: 'slow', choices: [], usage })}\n\ndata: [DONE]\n\n`);
    });
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

let upstream: SlowUpstream;
let gateway: TestGateway;
let proxy: CuttingProxy;
beforeAll(async () => {
  upstream = new SlowUpstream();
  await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
  proxy = await startCuttingProxy(() => gateway.url);
  gateway = await startTestGateway({
    server: { allowedHosts: [new URL(proxy.url).host] },
    providers: { slow: { type: 'openai-chat', baseURL: `${upstream.url}/v1`, apiKey: 'k', models: ['slow'], discoverModels: false } },
  });
});
afterAll(async () => {
  await proxy?.close();
  await gateway?.close();
  await new Promise((resolve) => upstream.server.close(resolve));
});

interface Asked {
  ok: boolean;
  text?: string;
  error?: string;
}

describe.skipIf(missing !== undefined)('a Python SDK stream cut mid-way, then the same request again', () => {
  it.each(['openai-chat', 'anthropic-messages', 'gemini'])('%s: the retry gets the whole text, the upstream saw one request', { timeout: 60_000 }, async (client) => {
    const key = `sk-python-${client}`;
    const before = upstream.requests;
    const cuts = proxy.cuts;
    proxy.cutNext('cut-after-body');
    const { stdout } = await run('python3', [SCRIPT, client, proxy.url, key], { timeout: 45_000 });
    const { first, retry } = JSON.parse(stdout) as { first: Asked; retry: Asked };
    expect(proxy.cuts).toBe(cuts + 1);
    expect(first.ok, `the cut request should fail: ${JSON.stringify(first)}`).toBe(false);
    expect(retry).toEqual({ ok: true, text: TEXT });
    expect(upstream.requests).toBe(before + 1);
    // The resume is noted on the record in the background, once the drain's record is final.
    let record: { resumed_by?: string } | undefined;
    for (let tries = 0; tries < 100 && record?.resumed_by === undefined; tries += 1) {
      if (tries > 0) await sleep(20);
      const listed = await fetch(`${gateway.url}/v1/recoveries`, { headers: { authorization: `Bearer ${key}` } });
      [record] = ((await listed.json()) as { items: Array<{ resumed_by?: string }> }).items;
    }
    expect(record?.resumed_by).toMatch(/\S/);
  });
});
