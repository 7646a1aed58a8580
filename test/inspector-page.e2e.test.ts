import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/parse-config.js';
import { fileStem, type RequestLogEntry } from '../src/log/request-log.js';
import { openRecoveryStore, type RecoveryStore } from '../src/recoveries/recovery-store.js';
import { createLogger } from '../src/server/create-logger.js';
import { startServer, type RunningServer } from '../src/server/start-server.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { readFixture } from './helpers/fixtures.js';
import { filesRequestLog } from './helpers/test-gateway.js';

/** Debian's chromium (`.ci/run` installs it when missing). */
const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`test/inspector-page.e2e.test.ts: skipped, no chromium at ${CHROMIUM} (apt-get install -y chromium)`);

const DAY_MS = 24 * 60 * 60 * 1000;
/** Where the screenshots go, to look at the page as a user sees it. */
const SCREENSHOTS = process.env.SWITCHYARD_SCREENSHOTS;

/** A log entry of an earlier day, so the usage chart has history to draw. */
function pastEntry(daysAgo: number, upstream: string, input: number, output: number, cost: number | null): RequestLogEntry {
  return {
    request_id: `past-${daysAgo}-${upstream}`,
    time: new Date(Date.now() - daysAgo * DAY_MS).toISOString(),
    user: 'local-0',
    protocol: 'openai-chat',
    endpoint: '/v1/chat/completions',
    model: upstream.split('/')[1],
    upstream,
    attempts: 1,
    mode: 'passthrough',
    status: 200,
    stream: true,
    duration_ms: 900,
    ttfb_ms: 200,
    input_tokens: input,
    output_tokens: output,
    cached_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    cost_usd: cost,
    interrupted_reason: null,
    resumed_from: null,
    warnings: [],
    user_agent: 'test',
  };
}

describe.skipIf(!haveChromium)('the inspector page in a real browser', () => {
  let home: string;
  let store: RecoveryStore;
  let server: RunningServer;
  let upstream: FakeUpstream;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'switchyard-inspector-'));
    upstream = await startFakeUpstream((request) =>
      JSON.parse(request.body).stream === true ? { sse: readFixture('openai-chat', 'text-stream.sse') } : { json: readFixture('openai-chat', 'text.json') },
    );
    const logDirectory = join(home, 'log');
    mkdirSync(logDirectory, { recursive: true });
    const past = [pastEntry(3, 'openai/gpt-4.1', 1200, 300, 0.0048), pastEntry(3, 'anthropic/claude-sonnet-4', 800, 500, 0.0099), pastEntry(5, 'openai/gpt-4.1', 2000, 100, 0.0048)];
    writeFileSync(join(logDirectory, `${fileStem(Date.now() - 6 * DAY_MS)}.jsonl`), past.map((entry) => JSON.stringify(entry)).join('\n') + '\n', { mode: 0o600 });
    store = await openRecoveryStore({ directory: join(home, 'recoveries') });
    const config = parseConfig(
      {
        providers: {
          mock: { type: 'mock', slowIntervalMs: 60, slowPieces: 40 },
          local: { type: 'openai-chat', baseURL: `${upstream.url}/v1`, models: ['fake-model'], discoverModels: false },
        },
      },
      {},
    );
    server = await startServer({ config, logger: createLogger({ write: () => {} }), recoveryStore: store, host: '127.0.0.1', port: 0, requestLog: await filesRequestLog(home, config) });
    context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'switchyard-chromium-')), {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1440, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(15_000);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await server?.close(500);
    await upstream?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  const shot = async (name: string) => {
    if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
  };

  it('shows a request sent by an SDK as it happens, and a streaming one growing', async () => {
    await page.goto(`${server.url}/ui`);
    await expect.poll(() => page.locator('#feed-state').textContent()).toBe('live');
    await expect.poll(() => page.locator('#requests-empty').isVisible()).toBe(true);
    // No keys configured: the page asks for none.
    expect(await page.locator('#key-form').isVisible()).toBe(false);

    // Translated: an Anthropic client, an OpenAI Chat upstream.
    const anthropic = new Anthropic({ apiKey: 'sk-page-test-0001', baseURL: server.url, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'local/fake-model', max_tokens: 64, system: 'Be brief.', messages: [{ role: 'user', content: 'Say hi' }] });
    expect(message.content[0]).toMatchObject({ type: 'text' });
    const row = page.locator('#requests tbody tr', { hasText: 'local/fake-model' });
    await row.waitFor();
    await expect.poll(() => row.locator('td.status').textContent()).toBe('200');

    // A slow stream: its row appears while it runs and its size grows.
    const openai = new OpenAI({ apiKey: 'sk-page-test-0001', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const stream = await openai.chat.completions.create({ model: 'mock-slow', stream: true, messages: [{ role: 'user', content: 'go' }] });
    const done = (async () => {
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      return text;
    })();
    const live = page.locator('#requests tbody tr', { hasText: 'mock/mock-slow' }).locator('.mark.live');
    await live.waitFor();
    const first = await live.textContent();
    await expect.poll(() => live.textContent(), { timeout: 10_000 }).not.toBe(first);
    await shot('requests-live');
    expect((await done).length).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#requests tbody tr', { hasText: 'mock/mock-slow' }).locator('td.status').textContent()).toBe('200');
    // Nothing was reloaded: the page learned of both requests from its live feed.
    expect(await page.evaluate('performance.getEntriesByType("navigation").length')).toBe(1);

    // Filters.
    await page.selectOption('#filter-protocol', 'anthropic-messages');
    await expect.poll(() => page.locator('#requests tbody tr').count()).toBe(1);
    await page.selectOption('#filter-protocol', '');
    await expect.poll(() => page.locator('#requests tbody tr').count()).toBe(2);
  });

  it("shows one request's client request and translated upstream request side by side, and the response", async () => {
    await page.locator('#requests tbody tr', { hasText: 'local/fake-model' }).click();
    const detail = page.locator('#detail');
    await detail.locator('.client-request').waitFor();
    const client = JSON.parse((await detail.locator('.client-request').textContent())!);
    expect(client).toMatchObject({ model: 'local/fake-model', system: 'Be brief.', max_tokens: 64 });
    const upstreamBody = JSON.parse((await detail.locator('.upstream-request').textContent())!);
    // Anthropic's top-level system became OpenAI's first message.
    expect(upstreamBody.model).toBe('fake-model');
    expect(upstreamBody.messages[0]).toMatchObject({ role: 'system' });
    expect(await detail.textContent()).toContain('Upstream request (translated)');
    const response = JSON.parse((await detail.locator('.response').textContent())!);
    expect(response).toMatchObject({ type: 'message', role: 'assistant' });
    expect(response.content[0].text).toContain('Hi there');
    await shot('request-detail');
  });

  it('opens a recovery record, deletes it, and deletes all after a confirmation', async () => {
    const openai = new OpenAI({ apiKey: 'sk-page-test-0001', baseURL: `${server.url}/v1`, maxRetries: 0 });
    expect(await store.list()).toHaveLength(0);
    for (let index = 0; index < 3; index += 1) {
      const stream = await openai.chat.completions.create({ model: 'mock-cut', stream: true, messages: [{ role: 'user', content: `cut ${index}` }] });
      await expect((async () => {
        for await (const _chunk of stream) void _chunk;
      })()).rejects.toThrow();
    }
    await expect.poll(async () => (await store.list()).length, { timeout: 10_000 }).toBe(3);

    // The request's detail links to its record.
    const cut = page.locator('#requests tbody tr', { hasText: 'mock/mock-cut' }).first();
    await cut.waitFor();
    await expect.poll(() => cut.locator('.mark:not(.live)').count()).toBe(1);
    await cut.click();
    await page.locator('#detail .recovery-link').click();
    await page.locator('#recovery-detail .recovery-request').waitFor();
    expect(await page.locator('#recovery-detail .recovery-request').textContent()).toContain('mock-cut');
    await shot('recoveries');
    await page.locator('#recovery-detail .delete-recovery').click();
    await expect.poll(() => page.locator('#recoveries tbody tr').count()).toBe(2);
    expect(await store.list()).toHaveLength(2);

    await page.locator('#recoveries-delete-all').click();
    expect(await page.locator('#recoveries-confirm').textContent()).toContain('Delete 2 record(s)?');
    await page.locator('#recoveries-confirm-yes').click();
    await expect.poll(() => page.locator('#recoveries tbody tr').count()).toBe(0);
    expect(await store.list()).toHaveLength(0);
    expect(await page.locator('#recoveries-empty').isVisible()).toBe(true);
  });

  it("with keys, asks for one, shows that user's requests only, and never shows the key", async () => {
    const alice = 'sk-alice-page-0123456789';
    const keyed = await startServer({
      config: parseConfig({ keys: [{ key: alice, user: 'alice' }, { key: 'sk-bob-page-0123456789', user: 'bob' }] }, {}),
      logger: createLogger({ write: () => {} }),
      recoveryStore: await openRecoveryStore({ directory: join(home, 'keyed-recoveries') }),
      host: '127.0.0.1',
      port: 0,
    });
    try {
      for (const [key, content] of [[alice, 'from alice'], ['sk-bob-page-0123456789', 'from bob']]) {
        const client = new OpenAI({ apiKey: key, baseURL: `${keyed.url}/v1`, maxRetries: 0 });
        await client.chat.completions.create({ model: 'mock-echo', messages: [{ role: 'user', content }] });
      }
      const tab = await context.newPage();
      await tab.goto(`${keyed.url}/ui`);
      await tab.locator('#key-form').waitFor();
      expect(await tab.locator('main').isVisible()).toBe(false);
      await tab.fill('#key-input', 'sk-wrong-0123456789');
      await tab.locator('#key-form button').click();
      await expect.poll(() => tab.locator('#key-error').textContent()).toContain('refused');
      await tab.fill('#key-input', alice);
      await tab.locator('#key-form button').click();
      await expect.poll(() => tab.locator('#requests tbody tr').count()).toBe(1);
      expect(await tab.locator('#requests tbody tr').textContent()).toContain('alice');
      await tab.locator('#requests tbody tr').click();
      await tab.locator('#detail .client-request').waitFor();
      expect(await tab.locator('#detail .client-request').textContent()).toContain('from alice');
      expect(await tab.content()).not.toContain(alice);
      if (SCREENSHOTS) await tab.screenshot({ path: join(SCREENSHOTS, 'keyed.png') });
      await tab.close();
    } finally {
      await keyed.close(500);
    }
  });

  it('draws tokens and cost per day and per model, for 7 and 30 days', async () => {
    await page.locator('.tab[data-view="usage"]').click();
    await expect.poll(() => page.locator('#usage-chart rect.bar').count()).toBeGreaterThanOrEqual(3);
    const models = await page.locator('#usage-models tbody tr').allTextContents();
    expect(models.join('\n')).toContain('openai/gpt-4.1');
    expect(models.join('\n')).toContain('anthropic/claude-sonnet-4');
    expect(await page.locator('#usage-chart text').allTextContents()).toHaveLength(7 + 5);
    await shot('usage');
    await page.locator('.range[data-days="30"]').click();
    await expect.poll(async () => (await page.locator('#usage-total').textContent()) ?? '').toContain('over 30 days');
  });
});
