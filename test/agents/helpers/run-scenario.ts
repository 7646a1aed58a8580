import { expect } from 'vitest';
import { createAgentSandbox, describeRun, type AgentRun, type AgentSandbox } from './agent-sandbox.js';
import { VENDOR, type AgentRig } from './agent-gateway.js';
import type { UpstreamProtocol } from './read-upstream-request.js';
import type { ClientExchange } from './recording-proxy.js';
import type { Script } from './script-answer.js';
import type { VendorExchange } from './scripted-upstream.js';

/** How long one agent may run before it is killed: a hung agent fails its test, never the suite. */
export const AGENT_TIMEOUT_MS = 120_000;

export const PROMPTS = {
  text: 'Say hello.',
  tool: 'Read the file note.txt in the current folder with your file reading tool and tell me the token it holds.',
} as const;

export interface ScenarioResult {
  run: AgentRun;
  sandbox: AgentSandbox;
  script: Script;
  /** What the agent sent to the gateway and got back, in order. */
  client: ClientExchange[];
  /** What reached the vendor, in order. */
  vendor: VendorExchange[];
  describe(): string;
}

/**
 * One agent run in a fresh sandbox against the gateway that routes to `target`, with the vendor
 * scripted for `scenario`; returns the run and every exchange it caused on both sides.
 */
export async function runScenario(
  rig: AgentRig,
  name: string,
  target: UpstreamProtocol,
  scenario: Script['scenario'],
  start: (sandbox: AgentSandbox, baseUrl: string, prompt: string) => Promise<AgentRun>,
): Promise<ScenarioResult> {
  const sandbox = createAgentSandbox(name, rig.trap.url);
  const { proxy } = rig.gateways[target];
  const script: Script = { scenario, answer: `Hello from the scripted ${target} vendor, ${sandbox.fileToken.replace('FILE-TOKEN', 'TEXT')}.`, filePath: sandbox.filePath, fileToken: sandbox.fileToken };
  rig.vendor.script = script;
  const clientStart = proxy.exchanges.length;
  const vendorStart = rig.vendor.exchanges.length;
  const strayStart = rig.trap.strays.length;
  try {
    const run = await start(sandbox, proxy.url, PROMPTS[scenario]);
    const client = proxy.exchanges.slice(clientStart);
    const vendor = rig.vendor.exchanges.slice(vendorStart);
    const strays = rig.trap.strays.slice(strayStart);
    const result: ScenarioResult = {
      run,
      sandbox,
      script,
      client,
      vendor,
      describe: () =>
        [
          describeRun(run),
          '--- agent → gateway ---',
          ...client.map((exchange) => `${exchange.method} ${exchange.url} → ${exchange.status} ${exchange.responseHeaders?.['x-switchyard-warnings'] ?? ''}`),
          '--- gateway → vendor ---',
          ...vendor.map((exchange) => `${exchange.method} ${exchange.url} → ${JSON.stringify(exchange.refusal ?? exchange.answer)?.slice(0, 400)}`),
          `--- stray requests: ${JSON.stringify(strays)}`,
        ].join('\n'),
    };
    // Nothing tried to leave the machine (the trap refused and wrote down any attempt).
    expect(strays, result.describe()).toEqual([]);
    return result;
  } finally {
    sandbox.remove();
  }
}

/**
 * The checks every run passes: the agent exited 0 in time; every model request it made was
 * answered 200 (translated ones may carry warnings, never an error), by the vendor `target` was
 * routed to; and its printed answer is the vendor's, once.
 */
export function expectCompletedTurns(result: ScenarioResult, target: UpstreamProtocol): void {
  const { run, client, vendor, script } = result;
  expect(run.timedOut, result.describe()).toBe(false);
  expect(run.code, result.describe()).toBe(0);
  const generations = client.filter((exchange) => exchange.method === 'POST');
  expect(generations.length, result.describe()).toBeGreaterThan(0);
  for (const exchange of generations) {
    expect(exchange.status, result.describe()).toBe(200);
    expect(exchange.responseHeaders?.['x-switchyard-upstream'], result.describe()).toBe(`${VENDOR[target].provider}/${VENDOR[target].model}`);
  }
  expect(vendor.length, result.describe()).toBe(generations.length);
  for (const exchange of vendor) expect(exchange.turn?.protocol, result.describe()).toBe(target);

  if (script.scenario === 'text') {
    expect(countOf(run.stdout, script.answer), result.describe()).toBe(1);
    return;
  }
  // The agent called its read tool, ran it, and sent the file's content back to the vendor...
  const call = vendor.find((exchange) => exchange.answer?.toolCall);
  expect(call, result.describe()).toBeDefined();
  const withResult = vendor.find((exchange) => exchange.turn!.toolResults.some((text) => text.includes(script.fileToken)));
  expect(withResult, result.describe()).toBeDefined();
  // ...and printed the final answer built from it, once.
  expect(countOf(run.stdout, `The file holds ${script.fileToken} (answered over ${target}).`), result.describe()).toBe(1);
}

function countOf(text: string, part: string): number {
  return text.split(part).length - 1;
}

/** The request bodies of a run's model calls, both sides, in order (parsed). */
export function bodiesOf(exchanges: ReadonlyArray<ClientExchange | VendorExchange>): any[] {
  return exchanges.filter((exchange) => exchange.method === 'POST').map((exchange) => JSON.parse(exchange.bodyText));
}
