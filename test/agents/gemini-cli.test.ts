import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentRig, VENDOR, type AgentRig } from './helpers/agent-gateway.js';
import { UPSTREAM_PROTOCOLS, type UpstreamProtocol } from './helpers/read-upstream-request.js';
import { runGeminiCli } from './helpers/run-gemini-cli.js';
import { AGENT_TIMEOUT_MS, bodiesOf, expectCompletedTurns, runScenario, type ScenarioResult } from './helpers/run-scenario.js';

/**
 * Gemini CLI (`gemini -p`) through the gateway to a vendor of each protocol. Its model names
 * (gemini-*, for the router and the main model) reach the vendor by the config's alias.
 */
let rig: AgentRig;
beforeAll(async () => {
  rig = await startAgentRig();
});
afterAll(async () => {
  await rig?.close();
});

const gemini = (target: UpstreamProtocol, scenario: 'text' | 'tool') =>
  runScenario(rig, 'gemini', target, scenario, (sandbox, baseUrl, prompt) => runGeminiCli(sandbox, baseUrl, prompt, AGENT_TIMEOUT_MS));

describe.each(UPSTREAM_PROTOCOLS)('Gemini CLI → gateway → %s vendor', (target) => {
  it('prints the text answer', async () => {
    const result = await gemini(target, 'text');
    expectCompletedTurns(result, target);
    expectGeminiCliRequests(result);
    if (target === 'gemini') expectPassthrough(result);
  });

  it('reads a file with read_file and answers from it', async () => {
    const result = await gemini(target, 'tool');
    expectCompletedTurns(result, target);
    expectGeminiCliRequests(result);
    const followUp = bodiesOf(result.client).at(-1);
    const parts = followUp.contents.flatMap((content: any) => content.parts);
    const call = parts.find((part: any) => part.functionCall);
    expect(call.functionCall, result.describe()).toMatchObject({ name: 'read_file', args: { file_path: result.sandbox.filePath }, id: expect.any(String) });
    const response = parts.find((part: any) => part.functionResponse);
    expect(response.functionResponse, result.describe()).toMatchObject({ name: 'read_file', id: call.functionCall.id });
    if (target === 'gemini') {
      expectPassthrough(result);
      // The vendor's thought signature came back on the function call, unchanged.
      const signature = result.vendor.find((exchange) => exchange.answer?.toolCall)!.answer!.reasoning!.signature;
      expect(call.thoughtSignature, result.describe()).toBe(signature);
    }
  });
});

/**
 * What this version of Gemini CLI sends (docs/agents.md): first a non-stream routing request whose JSON
 * answer it parses strictly (it then picks a flash model: the vendor scores every task 10), then
 * streamed turns with tools in `parametersJsonSchema` and a thinking level.
 */
function expectGeminiCliRequests(result: ScenarioResult): void {
  const [routing, ...turns] = result.client.filter((entry) => entry.method === 'POST');
  expect(routing.url).toMatch(/^\/v1beta\/models\/gemini-[^/]+:generateContent$/);
  const routingBody = JSON.parse(routing.bodyText);
  expect(routingBody.generationConfig.responseJsonSchema).toMatchObject({ type: 'OBJECT' });
  expect(() => JSON.parse(JSON.parse(routing.responseText).candidates[0].content.parts.map((part: any) => part.text ?? '').join(''))).not.toThrow();
  expect(turns.length).toBeGreaterThan(0);
  for (const exchange of turns) {
    expect(exchange.url, result.describe()).toMatch(/^\/v1beta\/models\/gemini-[^/]*flash[^/]*:streamGenerateContent\?alt=sse$/);
    expect(exchange.headers['x-goog-api-key']).toBe('sk-agent-gemini');
    const body = JSON.parse(exchange.bodyText);
    expect(body.tools[0].functionDeclarations.find((tool: any) => tool.name === 'read_file').parametersJsonSchema).toMatchObject({ required: ['file_path'] });
    expect(body.generationConfig.thinkingConfig).toHaveProperty('thinkingLevel');
    // The last record carries finishReason (without it Gemini CLI retries and repeats its output).
    const records = exchange.responseText.split(/\r?\n\r?\n/).filter((record) => record.startsWith('data:'));
    expect(JSON.parse(records.at(-1)!.slice(5)).candidates[0].finishReason, result.describe()).toBe('STOP');
  }
}

/** Same protocol on both ends: the body reached the vendor as sent, under the vendor's model, and the answer came back as is. */
function expectPassthrough(result: ScenarioResult): void {
  const client = result.client.filter((entry) => entry.method === 'POST');
  client.forEach((exchange, index) => {
    const upstream = result.vendor[index];
    expect(upstream.url).toBe(exchange.url.replace(/models\/[^:]+:/, `models/${VENDOR.gemini.model}:`));
    expect(upstream.headers['x-goog-api-key']).toBe('vendor-secret-key');
    expect(JSON.parse(upstream.bodyText)).toEqual(JSON.parse(exchange.bodyText));
    expect(exchange.responseHeaders?.['x-switchyard-warnings']).toBeUndefined();
    expect(exchange.responseText).toBe(upstream.responseText);
  });
}
