import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCutRig } from '../helpers/cut-rig.js';
import { pollUntil } from '../helpers/poll-until.js';
import { createAgentSandbox, describeRun } from './helpers/agent-sandbox.js';
import { startAgentRig, VENDOR, type AgentRig } from './helpers/agent-gateway.js';
import { UPSTREAM_PROTOCOLS } from './helpers/read-upstream-request.js';
import { runClaudeCode } from './helpers/run-claude-code.js';
import { AGENT_TIMEOUT_MS, bodiesOf, expectCompletedTurns, runScenario, type ScenarioResult } from './helpers/run-scenario.js';

/**
 * Claude Code (`claude -p`) through the gateway to a vendor of each protocol. Its own model names
 * (claude-*) reach the vendor by the config's alias; Anthropic traffic passes through untouched.
 */
let rig: AgentRig;
beforeAll(async () => {
  rig = await startAgentRig();
});
afterAll(async () => {
  await rig?.close();
});

const claude = (target: (typeof UPSTREAM_PROTOCOLS)[number], scenario: 'text' | 'tool') =>
  runScenario(rig, 'claude', target, scenario, (sandbox, baseUrl, prompt) => runClaudeCode(sandbox, baseUrl, prompt, AGENT_TIMEOUT_MS));

describe.each(UPSTREAM_PROTOCOLS)('Claude Code → gateway → %s vendor', (target) => {
  it('prints the text answer', async () => {
    const result = await claude(target, 'text');
    expectCompletedTurns(result, target);
    expectClaudeCodeRequests(result);
    if (target === 'anthropic-messages') expectPassthrough(result);
  });

  it('reads a file with its Read tool and answers from it', async () => {
    const result = await claude(target, 'tool');
    expectCompletedTurns(result, target);
    expectClaudeCodeRequests(result);
    const [first, second] = bodiesOf(result.client);
    // Read with an absolute file_path, as its schema asks.
    expect(second.messages.at(-2).content.find((block: any) => block.type === 'tool_use'), result.describe()).toMatchObject({ name: 'Read', input: { file_path: result.sandbox.filePath } });
    // Tool results are marked for caching.
    expect(second.messages.at(-1).content[0], result.describe()).toMatchObject({ type: 'tool_result', cache_control: { type: 'ephemeral' } });
    expect(first.tools.find((tool: any) => tool.name === 'Read').input_schema.required).toEqual(['file_path']);
    if (target === 'anthropic-messages') {
      expectPassthrough(result);
      // The vendor's thinking block and its signature came back to it unchanged.
      const answered = result.vendor[0].answer!.reasoning!;
      expect(JSON.parse(result.vendor[1].bodyText).messages.at(-2).content[0]).toEqual({ type: 'thinking', thinking: answered.text, signature: answered.signature });
    }
  });
});

it('serves the endpoints Claude Code may call besides /v1/messages: HEAD /api/hello and GET /v1/models?limit=1000', async () => {
  const { gateway } = rig.gateways['anthropic-messages'];
  const headers = { 'x-api-key': 'sk-agent-claude', 'anthropic-version': '2023-06-01' };
  const hello = await fetch(`${gateway.url}/api/hello`, { method: 'HEAD', headers });
  expect(hello.status).toBe(200);
  const models = await fetch(`${gateway.url}/v1/models?limit=1000`, { headers });
  expect(models.status).toBe(200);
  const list = (await models.json()) as { data: Array<{ id: string; type: string }> };
  expect(list.data.map((model) => model.id)).toContain(VENDOR['anthropic-messages'].model);
  expect(list.data.every((model) => model.type === 'model')).toBe(true);
});

/** What this version of Claude Code sends (documented in docs/agents.md), so that every test exercises it. */
function expectClaudeCodeRequests(result: ScenarioResult): void {
  for (const exchange of result.client.filter((entry) => entry.method === 'POST')) {
    expect(exchange.url).toBe('/v1/messages?beta=true');
    expect(String(exchange.headers['anthropic-beta']).split(',').length).toBeGreaterThan(3);
    expect(exchange.headers['x-api-key']).toBe('sk-agent-claude');
    const body = JSON.parse(exchange.bodyText);
    expect(body.model).toMatch(/^claude-/);
    // Always streamed, and answered with `event:` lines (without them it retries without streaming).
    expect(body.stream).toBe(true);
    expect(exchange.responseText).toMatch(/^event: message_start$/m);
    expect(body.system.some((block: any) => block.cache_control)).toBe(true);
    expect(body.messages.some((message: any) => message.role === 'system')).toBe(true);
    expect(body.thinking).toMatchObject({ type: 'adaptive' });
    expect(body.output_config).toHaveProperty('effort');
    expect(body.context_management).toBeDefined();
    expect(body.tools.some((tool: any) => tool.defer_loading === true)).toBe(true);
    expect(JSON.parse(body.metadata.user_id)).toHaveProperty('session_id');
    expect(body.max_tokens).toBeGreaterThanOrEqual(32_000);
  }
}

/**
 * Same protocol on both ends: each request reached the vendor as sent (path with `?beta=true`, the
 * same betas, the same body but for the model) and the vendor's stream reached Claude Code as is.
 */
function expectPassthrough(result: ScenarioResult): void {
  const client = result.client.filter((entry) => entry.method === 'POST');
  client.forEach((exchange, index) => {
    const upstream = result.vendor[index];
    expect(upstream.url).toBe(exchange.url);
    expect(upstream.headers['anthropic-beta']).toBe(exchange.headers['anthropic-beta']);
    expect(upstream.headers['anthropic-version']).toBe(exchange.headers['anthropic-version']);
    expect(upstream.headers['x-api-key']).toBe('vendor-secret-key');
    expect(JSON.parse(upstream.bodyText)).toEqual({ ...JSON.parse(exchange.bodyText), model: VENDOR['anthropic-messages'].model });
    expect(exchange.responseHeaders?.['x-switchyard-warnings']).toBeUndefined();
    expect(exchange.responseText).toBe(upstream.responseText);
  });
}

it('cut mid-answer, asks again by itself and gets the rest from the recovery record: the vendor is asked once', async () => {
  // An OpenAI-compatible vendor that takes its time (Claude Code's Anthropic requests translated
  // for it), a TCP proxy in front of the gateway that cuts Claude Code's first connection once
  // the answer's first words have reached it, and a gateway that resumes (its default).
  const cut = await startCutRig(['The answer', ' is', ' forty', '-two.'], 250, { aliases: { 'claude-*': 'slow/slow' } });
  const { gateway, proxy } = cut;
  const sandbox = createAgentSandbox('claude-cut', rig.trap.url);
  try {
    proxy.cutNext('cut-after-body', 'The answer');
    const run = await runClaudeCode(sandbox, proxy.url, 'What is the answer?', AGENT_TIMEOUT_MS);
    expect(proxy.cuts, describeRun(run)).toBe(1);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout.trim(), describeRun(run)).toBe('The answer is forty-two.');
    // One generation upstream for the turn: the retry was answered from the record of the cut one.
    expect(cut.upstream.requests, describeRun(run)).toBe(1);
    // The record of the cut request, completed once its drain is written, names the retry it answered.
    const listed = async () => (await (await fetch(`${gateway.url}/v1/recoveries`, { headers: { authorization: 'Bearer sk-agent-claude' } })).json()).items[0];
    const record = await pollUntil(listed, (item) => item?.state === 'complete', { tries: 200 });
    expect(record, describeRun(run)).toMatchObject({ interrupted_reason: 'client_disconnected', state: 'complete' });
    expect(record.resumed_by, describeRun(run)).toMatch(/\S/);
  } finally {
    sandbox.remove();
    await cut.close();
  }
});
