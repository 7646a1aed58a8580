import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentRig, type AgentRig } from './helpers/agent-gateway.js';
import { expectChatPassthrough } from './helpers/expect-chat-passthrough.js';
import { UPSTREAM_PROTOCOLS, type UpstreamProtocol } from './helpers/read-upstream-request.js';
import { runQwenCode } from './helpers/run-qwen-code.js';
import { AGENT_TIMEOUT_MS, bodiesOf, expectCompletedTurns, runScenario, type ScenarioResult } from './helpers/run-scenario.js';

/**
 * Qwen Code (`qwen -p`) through the gateway to a vendor of each protocol, on its OpenAI-compatible
 * auth (Chat Completions). Without OPENAI_MODEL it asks for its own default model, which reaches
 * the vendor by the default model of the Chat Completions protocol.
 */
let rig: AgentRig;
beforeAll(async () => {
  rig = await startAgentRig();
});
afterAll(async () => {
  await rig?.close();
});

const qwen = (target: UpstreamProtocol, scenario: 'text' | 'tool') =>
  runScenario(rig, 'qwen', target, scenario, (sandbox, baseUrl, prompt) => runQwenCode(sandbox, baseUrl, prompt, AGENT_TIMEOUT_MS));

describe.each(UPSTREAM_PROTOCOLS)('Qwen Code → gateway → %s vendor', (target) => {
  it('prints the text answer', async () => {
    const result = await qwen(target, 'text');
    expectCompletedTurns(result, target);
    expectQwenCodeRequests(result);
    if (target === 'openai-chat') expectChatPassthrough(result);
  });

  it('reads a file with read_file and answers from it', async () => {
    const result = await qwen(target, 'tool');
    expectCompletedTurns(result, target);
    expectQwenCodeRequests(result);
    const followUp = bodiesOf(result.client).at(-1);
    // The call came back to the vendor as a Chat tool call with its arguments, and the result under its id.
    const assistant = followUp.messages.findLast((message: any) => message.tool_calls);
    const call = assistant.tool_calls[0];
    expect(call, result.describe()).toMatchObject({ type: 'function', function: { name: 'read_file' } });
    expect(JSON.parse(call.function.arguments)).toEqual({ file_path: result.sandbox.filePath });
    const toolMessage = followUp.messages.find((message: any) => message.role === 'tool' && message.tool_call_id === call.id);
    expect(JSON.stringify(toolMessage?.content), result.describe()).toContain(result.script.fileToken);
    if (target === 'openai-chat') expectChatPassthrough(result);
  });
});

/**
 * What this version of Qwen Code sends (docs/agents.md): streamed Chat Completions through the
 * OpenAI SDK, asking for usage, under its default model name, with its tools (read_file takes an
 * absolute `file_path`), the system prompt as a system message.
 */
function expectQwenCodeRequests(result: ScenarioResult): void {
  for (const exchange of result.client.filter((entry) => entry.method === 'POST')) {
    expect(exchange.url).toBe('/v1/chat/completions');
    expect(exchange.headers.authorization).toBe('Bearer sk-agent-qwen');
    expect(exchange.headers['user-agent']).toMatch(/^QwenCode\/0\.24\.4 /);
    const body = JSON.parse(exchange.bodyText);
    expect(body).toMatchObject({ model: 'qwen3.7-max', stream: true, stream_options: { include_usage: true } });
    expect(body.messages[0].role).toBe('system');
    expect(body.tools.find((tool: any) => tool.function.name === 'read_file').function.parameters).toMatchObject({ required: ['file_path'] });
    // The usage chunk, then [DONE]: what the OpenAI SDK's stream ends on.
    expect(exchange.responseText, result.describe()).toMatch(/"usage":\{"prompt_tokens":\d+[^]*data: \[DONE\]\s*$/);
  }
}
