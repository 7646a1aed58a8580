import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentRig, VENDOR, type AgentRig } from './helpers/agent-gateway.js';
import { UPSTREAM_PROTOCOLS, type UpstreamProtocol } from './helpers/read-upstream-request.js';
import { runCodex, type CodexOptions } from './helpers/run-codex.js';
import { AGENT_TIMEOUT_MS, bodiesOf, expectCompletedTurns, runScenario, type ScenarioResult } from './helpers/run-scenario.js';

/**
 * Codex CLI (`codex exec`) through the gateway to a vendor of each protocol, with a custom
 * provider on the Responses wire API. Its model names reach the vendor by the default model of the
 * Responses protocol. Two request shapes: a model outside Codex's catalog gets top-level tools
 * (exec_command, namespaces, web_search); its own default model (catalog, "code mode") gets one
 * `additional_tools` input item whose freeform `exec` tool runs JavaScript that calls the others.
 */
let rig: AgentRig;
beforeAll(async () => {
  rig = await startAgentRig();
});
afterAll(async () => {
  await rig?.close();
});

const MODELS: Array<{ label: string; options: CodexOptions }> = [
  { label: 'a model outside its catalog', options: { model: 'gpt-5.1-codex' } },
  { label: 'its default catalog model (code mode)', options: { model: undefined } },
];

const codex = (target: UpstreamProtocol, scenario: 'text' | 'tool', options: CodexOptions) =>
  runScenario(rig, 'codex', target, scenario, (sandbox, baseUrl, prompt) => runCodex(sandbox, baseUrl, prompt, options, AGENT_TIMEOUT_MS));

describe.each(MODELS)('Codex on $label', ({ options }) => {
  describe.each(UPSTREAM_PROTOCOLS)('→ gateway → %s vendor', (target) => {
    it('prints the text answer', async () => {
      const result = await codex(target, 'text', options);
      expectCompletedTurns(result, target);
      expectCodexRequests(result, options);
      if (target === 'openai-responses') expectPassthrough(result);
    });

    it('reads a file with its shell tool and answers from it', async () => {
      const result = await codex(target, 'tool', options);
      expectCompletedTurns(result, target);
      expectCodexRequests(result, options);
      const second = bodiesOf(result.client)[1];
      // Stateless: the whole history comes back, the call and its output included.
      const callType = options.model ? 'function_call' : 'custom_tool_call';
      const call = second.input.find((item: any) => item.type === callType);
      expect(call, result.describe()).toMatchObject({ name: options.model ? 'exec_command' : 'exec' });
      expect(JSON.stringify(second.input.find((item: any) => item.type === `${callType}_output` && item.call_id === call.call_id))).toContain(result.script.fileToken);
      if (target === 'openai-responses') {
        expectPassthrough(result);
        // The vendor's encrypted reasoning came back to it unchanged (store: false).
        const reasoning = JSON.parse(result.vendor[1].bodyText).input.find((item: any) => item.type === 'reasoning');
        expect(reasoning, result.describe()).toMatchObject({ encrypted_content: result.vendor[0].answer!.reasoning!.signature });
      }
    });
  });
});

it('falls back to HTTP at once when its WebSocket upgrade on /v1/responses is answered 426', async () => {
  const result = await codex('openai-responses', 'text', { model: 'gpt-5.1-codex', websockets: true });
  expectCompletedTurns(result, 'openai-responses');
  const upgrade = result.client.find((exchange) => exchange.upgrade);
  expect(upgrade, result.describe()).toMatchObject({ method: 'GET', url: '/v1/responses', status: 426 });
  expect(String(upgrade!.headers.upgrade).toLowerCase()).toBe('websocket');
});

/** What this version of Codex sends (documented in docs/agents.md), so that every test exercises it. */
function expectCodexRequests(result: ScenarioResult, options: CodexOptions): void {
  for (const exchange of result.client.filter((entry) => entry.method === 'POST')) {
    expect(exchange.url).toBe('/v1/responses');
    expect(exchange.headers.authorization).toBe('Bearer sk-agent-codex');
    const body = JSON.parse(exchange.bodyText);
    expect(body).toMatchObject({ stream: true, store: false, include: ['reasoning.encrypted_content'], parallel_tool_calls: expect.any(Boolean) });
    expect(body.prompt_cache_key).toEqual(expect.any(String));
    expect(body.client_metadata).toEqual(expect.any(Object));
    expect(body.input.some((item: any) => item.role === 'developer' && typeof item.id === 'string')).toBe(true);
    // A completed response is what ends a Codex turn.
    expect(exchange.responseText).toMatch(/^event: response\.completed$/m);
    if (options.model) {
      expect(body.model).toBe(options.model);
      expect(body.tools.map((tool: any) => tool.type)).toEqual(expect.arrayContaining(['function', 'namespace', 'web_search']));
    } else {
      expect(body.tools).toBeUndefined();
      const additional = body.input.find((item: any) => item.type === 'additional_tools');
      expect(additional.tools.flatMap((tool: any) => tool.tools ?? [tool]).find((tool: any) => tool.name === 'exec')).toMatchObject({ type: 'custom' });
    }
  }
}

/** Same protocol on both ends: the body reached the vendor as sent but for the model, and the vendor's stream reached Codex as is. */
function expectPassthrough(result: ScenarioResult): void {
  const client = result.client.filter((entry) => entry.method === 'POST');
  client.forEach((exchange, index) => {
    const upstream = result.vendor[index];
    expect(upstream.url).toBe('/v1/responses');
    expect(upstream.headers.authorization).toBe('Bearer vendor-secret-key');
    expect(JSON.parse(upstream.bodyText)).toEqual({ ...JSON.parse(exchange.bodyText), model: VENDOR['openai-responses'].model });
    expect(exchange.responseHeaders?.['x-switchyard-warnings']).toBeUndefined();
    expect(exchange.responseText).toBe(upstream.responseText);
  });
}
