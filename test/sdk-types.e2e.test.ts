import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSamplesAgainstTypeScriptSdks } from './helpers/check-sdk-types-ts.js';
import { collectClientSamples, SCENARIOS, replyFromScenario, type ClientProtocol, type ClientSample } from './helpers/client-samples.js';
import { createUpstreamProviders, UPSTREAM_PROTOCOLS, UPSTREAM_PROVIDER_ID } from './helpers/fake-protocol-upstream.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

/**
 * Everything the gateway builds for a client, checked against the official SDKs' types: every
 * client protocol on every other upstream (the same protocol on both ends is passthrough, whose
 * bytes are the upstream's), non-stream and stream, over recordings with text, tool calls,
 * reasoning, cache counts, images, server tools and upstream errors; the mock models; the
 * gateway's own errors; the model lists.
 *
 * Twice: against the TypeScript SDKs installed here (openai, @anthropic-ai/sdk), type-checked in
 * memory; and against the Python SDKs (openai, anthropic, google-genai: pydantic models that reject
 * a missing required field or a wrong type), in one Python process that then calls the gateway
 * with those SDKs' own clients (test/python/check-sdk-types.py). Without Python or its SDKs the
 * Python check is skipped: `python3 -m pip install openai anthropic google-genai`.
 */
const CHECKER = fileURLToPath(new URL('./python/check-sdk-types.py', import.meta.url));
const CLIENTS: ClientProtocol[] = ['openai-chat', 'anthropic-messages', 'openai-responses', 'gemini'];
const run = promisify(execFile);

async function pythonSdksMissing(): Promise<string | undefined> {
  try {
    await run('python3', ['-c', 'import openai, anthropic, pydantic; from google import genai'], { timeout: 60_000 });
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code === 'ENOENT' ? 'python3 is not installed' : 'the Python SDKs are not installed (python3 -m pip install openai anthropic google-genai)';
  }
}

const missing = await pythonSdksMissing();
if (missing) console.log(`sdk-types.e2e: the Python SDK check is skipped, ${missing}`);

interface CheckerReport {
  versions: Record<string, string>;
  checked: number;
  failures: Array<{ label: string; kind: string; error: string }>;
  clients: Array<{ name: string; ok: boolean; summary?: unknown; error?: string }>;
}

let upstream: FakeUpstream;
let gateway: TestGateway;
let samples: ClientSample[];

beforeAll(async () => {
  upstream = await startFakeUpstream(replyFromScenario);
  gateway = await startTestGateway({ providers: createUpstreamProviders(upstream.url) });
  samples = await collectAll(gateway.url);
}, 120_000);
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

async function collectAll(url: string): Promise<ClientSample[]> {
  const samples: ClientSample[] = [];
  for (const client of CLIENTS) {
    // The same protocol on both ends is passthrough: those bytes are the upstream's, not the gateway's.
    for (const protocol of UPSTREAM_PROTOCOLS.filter((upstreamProtocol) => upstreamProtocol !== client)) {
      for (const [name, scenario] of Object.entries(SCENARIOS[protocol])) {
        const model = `${UPSTREAM_PROVIDER_ID[protocol]}/${name}`;
        const options = { tools: scenario.tools, reasoning: scenario.reasoning };
        if (scenario.json) samples.push(...(await collectClientSamples(url, client, model, false, options)));
        if (scenario.stream) samples.push(...(await collectClientSamples(url, client, model, true, options)));
      }
    }
    for (const model of ['mock-echo', 'mock-lorem', 'mock-tools', 'mock-cut', 'mock-fail', 'no-such-provider/no-such-model']) {
      for (const stream of [false, true]) samples.push(...(await collectClientSamples(url, client, model, stream, { tools: model === 'mock-tools' })));
    }
  }
  // What a Responses object echoes of the request, and a call of the client's own custom tool.
  const echoed = {
    instructions: 'Answer briefly.',
    max_output_tokens: 500,
    temperature: 0.5,
    top_p: 0.9,
    metadata: { run: 'sdk-types' },
    safety_identifier: 'user-1',
    prompt_cache_key: 'cache-1',
    parallel_tool_calls: false,
    tool_choice: 'auto',
    tools: [{ type: 'function', name: 'lookup', description: 'Looks up.', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }, strict: true }],
    text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false }, strict: true }, verbosity: 'low' },
  };
  const custom = { tools: [{ type: 'custom', name: 'exec', description: 'Runs a shell command.' }] };
  for (const stream of [false, true]) {
    samples.push(...(await collectClientSamples(url, 'openai-responses', `${UPSTREAM_PROVIDER_ID['openai-chat']}/text`, stream, { body: echoed })));
    samples.push(...(await collectClientSamples(url, 'openai-responses', `${UPSTREAM_PROVIDER_ID.gemini}/text`, stream, { reasoning: true, body: echoed })));
    samples.push(...(await collectClientSamples(url, 'openai-responses', 'mock-tools', stream, { body: custom })));
  }
  const lists: Array<[string, string, Record<string, string>]> = [
    ['openai/model-list', '/v1/models', {}],
    ['anthropic/model-list', '/v1/models', { 'anthropic-version': '2023-06-01' }],
    ['gemini/model-list', '/v1/models', { 'x-goog-api-key': 'test-key' }],
    ['gemini/model-list', '/v1beta/models', { 'x-goog-api-key': 'test-key' }],
    ['openai/model', '/v1/models/mock-echo', {}],
    ['anthropic/model', '/v1/models/mock-echo', { 'anthropic-version': '2023-06-01' }],
    ['gemini/model', '/v1beta/models/mock-echo', { 'x-goog-api-key': 'test-key' }],
    ['openai-chat/error', '/v1/models/no-such-model', {}],
    ['anthropic-messages/error', '/v1/models/no-such-model', { 'anthropic-version': '2023-06-01' }],
    ['gemini/error', '/v1beta/models/no-such-model', { 'x-goog-api-key': 'test-key' }],
  ];
  for (const [kind, path, headers] of lists) {
    const response = await fetch(`${url}${path}`, { headers });
    samples.push({ kind, label: `GET ${path} ${JSON.stringify(headers)} ${response.status}`, value: await response.json() });
  }
  return samples;
}

describe('what the gateway sends its clients fits the official SDKs', () => {
  it('covers every kind of record', () => {
    // A path that went quiet cannot pass for a valid one.
    const kinds = new Set(samples.map((sample) => sample.kind));
    for (const client of CLIENTS) for (const kind of ['response', 'error']) expect(kinds).toContain(`${client}/${kind}`);
    for (const kind of ['openai-chat/chunk', 'openai-responses/event', 'anthropic-messages/event']) expect(kinds).toContain(kind);
    const events = new Set(samples.filter((sample) => sample.kind === 'openai-responses/event').map((sample) => (sample.value as { type: string }).type));
    for (const type of ['response.custom_tool_call_input.done', 'response.reasoning_summary_text.delta', 'response.function_call_arguments.done', 'response.failed', 'error']) expect(events).toContain(type);
  });

  it('type-checks against the TypeScript SDKs (openai, @anthropic-ai/sdk)', { timeout: 120_000 }, () => {
    const report = checkSamplesAgainstTypeScriptSdks(samples);
    expect(report.checked).toBeGreaterThan(1000);
    expect(report.failures).toEqual([]);
  });

  it.skipIf(missing !== undefined)('validates against the Python SDKs, and their clients read the gateway', { timeout: 120_000 }, async () => {
    const directory = mkdtempSync(join(tmpdir(), 'switchyard-sdk-types-'));
    try {
      const file = join(directory, 'samples.jsonl');
      writeFileSync(file, samples.map((sample) => JSON.stringify(sample)).join('\n') + '\n');
      const { stdout } = await run('python3', [CHECKER, file, gateway.url], { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 });
      const report = JSON.parse(stdout) as CheckerReport;
      console.log(`sdk-types.e2e: ${report.checked} records checked against ${Object.entries(report.versions).map(([name, version]) => `${name} ${version}`).join(', ')}`);
      expect(report.checked).toBe(samples.length);
      expect(report.failures).toEqual([]);
      expect(report.clients.filter((client) => !client.ok)).toEqual([]);
      expect(report.clients.map((client) => client.summary)).toMatchInlineSnapshot(`
        [
          "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
          [
            "get_country",
          ],
          {
            "cache_write": 0,
            "cached": 0,
            "text": "Hi there! How can I help you today? I can explain concepts, answer questions, help with writing or editing, brainstorm ideas, assist with coding or math, plan tasks, and more. Tell me what you’d like to do.",
          },
          [
            "get_country",
          ],
          "The capital of France is Paris.",
          [
            "get_capital",
          ],
          [
            "mock-echo",
            "mock-lorem",
            "mock-slow",
          ],
          "The capital of France is Paris.",
          "2",
          [
            "models/mock-echo",
            "models/mock-lorem",
            "models/mock-slow",
          ],
        ]
      `);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
