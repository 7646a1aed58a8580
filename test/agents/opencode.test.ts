import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentRig, VENDOR, type AgentRig } from './helpers/agent-gateway.js';
import { expectChatPassthrough } from './helpers/expect-chat-passthrough.js';
import { UPSTREAM_PROTOCOLS, type UpstreamProtocol } from './helpers/read-upstream-request.js';
import { runOpencode } from './helpers/run-opencode.js';
import { AGENT_TIMEOUT_MS, expectCompletedTurns, runScenario, type ScenarioResult } from './helpers/run-scenario.js';

/**
 * opencode (`opencode run`) through the gateway to a vendor of each protocol, with a provider of
 * its own on Chat Completions (`@ai-sdk/openai-compatible`). It needs a model named in its config:
 * the test names the vendor's `provider/model`, as the launcher does with `--model`.
 */
let rig: AgentRig;
beforeAll(async () => {
  rig = await startAgentRig();
});
afterAll(async () => {
  await rig?.close();
});

const modelOf = (target: UpstreamProtocol) => `${VENDOR[target].provider}/${VENDOR[target].model}`;

const opencode = (target: UpstreamProtocol, scenario: 'text' | 'tool') =>
  runScenario(rig, 'opencode', target, scenario, (sandbox, baseUrl, prompt) => runOpencode(sandbox, baseUrl, prompt, modelOf(target), AGENT_TIMEOUT_MS));

describe.each(UPSTREAM_PROTOCOLS)('opencode → gateway → %s vendor', (target) => {
  it('prints the text answer', async () => {
    const result = await opencode(target, 'text');
    expectCompletedTurns(result, target);
    expectOpencodeRequests(result, target);
    if (target === 'openai-chat') expectChatPassthrough(result);
  });

  it('reads a file with its read tool and answers from it', async () => {
    const result = await opencode(target, 'tool');
    expectCompletedTurns(result, target);
    expectOpencodeRequests(result, target);
    const turns = result.client.filter((exchange) => exchange.method === 'POST' && !isTitleRequest(exchange.bodyText)).map((exchange) => JSON.parse(exchange.bodyText));
    const followUp = turns.find((body) => body.messages.some((message: any) => message.role === 'tool'));
    expect(followUp, result.describe()).toBeDefined();
    // The call came back to the vendor as a Chat tool call with its arguments, and the result under its id.
    const assistant = followUp.messages.find((message: any) => message.tool_calls);
    const call = assistant.tool_calls[0];
    expect(call, result.describe()).toMatchObject({ type: 'function', function: { name: 'read' } });
    expect(JSON.parse(call.function.arguments)).toEqual({ filePath: result.sandbox.filePath });
    const toolMessage = followUp.messages.find((message: any) => message.role === 'tool');
    expect(toolMessage.tool_call_id).toBe(call.id);
    expect(JSON.stringify(toolMessage.content)).toContain(result.script.fileToken);
    if (target === 'openai-chat') expectChatPassthrough(result);
  });
});

function isTitleRequest(bodyText: string): boolean {
  return JSON.parse(bodyText).messages[0]?.content?.startsWith?.('You are a title generator') === true;
}

/**
 * What this version of opencode sends (docs/agents.md): with each prompt, a title request to its
 * small model (no tools) at the same time as the turn itself; both streamed Chat Completions asking
 * for usage, under the model id of its config, which here holds a slash (`provider/model`).
 */
function expectOpencodeRequests(result: ScenarioResult, target: UpstreamProtocol): void {
  const posts = result.client.filter((exchange) => exchange.method === 'POST');
  expect(posts.filter((exchange) => isTitleRequest(exchange.bodyText)), result.describe()).toHaveLength(1);
  for (const exchange of posts) {
    expect(exchange.url).toBe('/v1/chat/completions');
    expect(exchange.headers.authorization).toBe('Bearer sk-agent-opencode');
    expect(exchange.headers['user-agent']).toMatch(/^opencode\/1\.18\.33 /);
    const body = JSON.parse(exchange.bodyText);
    expect(body).toMatchObject({ model: modelOf(target), stream: true, stream_options: { include_usage: true } });
    expect(body.max_tokens).toBeGreaterThan(0);
    if (isTitleRequest(exchange.bodyText)) {
      expect(body.tools).toBeUndefined();
    } else {
      expect(body.tool_choice).toBe('auto');
      expect(body.tools.find((tool: any) => tool.function.name === 'read').function.parameters).toMatchObject({ required: ['filePath'] });
    }
    // The stream ends as the AI SDK expects: the usage chunk, then [DONE].
    expect(exchange.responseText, result.describe()).toMatch(/"usage":\{"prompt_tokens":\d+[^]*data: \[DONE\]\s*$/);
  }
}
