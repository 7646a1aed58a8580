import { startTestGateway, type TestGateway } from '../../helpers/test-gateway.js';
import { UPSTREAM_PROTOCOLS, type UpstreamProtocol } from './read-upstream-request.js';
import { startNetworkTrap, type NetworkTrap } from './network-trap.js';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.js';
import { startScriptedUpstream, type ScriptedUpstream } from './scripted-upstream.js';

/** The provider id and upstream model of each protocol's vendor in the gateway config. */
export const VENDOR: Record<UpstreamProtocol, { provider: string; model: string }> = {
  'anthropic-messages': { provider: 'vendor-anthropic', model: 'vendor-model-anthropic' },
  'openai-chat': { provider: 'vendor-chat', model: 'vendor-model-chat' },
  'openai-responses': { provider: 'vendor-responses', model: 'vendor-model-responses' },
  gemini: { provider: 'vendor-gemini', model: 'vendor-model-gemini' },
};

/**
 * Model names the agents ask for that their own vendor's provider also lists (as a real Anthropic
 * or Gemini provider would, from discovery): the aliases must still win over those lists.
 */
const AGENT_MODELS_LISTED: Partial<Record<UpstreamProtocol, string[]>> = {
  'anthropic-messages': ['claude-opus-5-5'],
  gemini: ['gemini-3.8-flash'],
};

/**
 * The gateway config that sends the agents' own model names to the vendor of `target`: Claude
 * Code's `claude-*` and Gemini CLI's `gemini-*` names by alias, Codex's `gpt-*` names by the
 * default model of the Responses protocol, Qwen Code's by that of Chat Completions (opencode names
 * `provider/model` itself). Each of the four vendors is a provider of its protocol.
 */
export function agentGatewayConfig(vendorUrl: string, target: UpstreamProtocol): Record<string, unknown> {
  const providers: Record<string, unknown> = { mock: false };
  for (const protocol of UPSTREAM_PROTOCOLS) {
    const openAI = protocol === 'openai-chat' || protocol === 'openai-responses';
    providers[VENDOR[protocol].provider] = {
      type: protocol,
      baseURL: openAI ? `${vendorUrl}/v1` : vendorUrl,
      apiKey: 'vendor-secret-key',
      models: [VENDOR[protocol].model, ...(AGENT_MODELS_LISTED[protocol] ?? [])],
      discoverModels: false,
      timeoutMs: 60_000,
    };
  }
  const targetModel = `${VENDOR[target].provider}/${VENDOR[target].model}`;
  return {
    providers,
    aliases: { 'claude-*': targetModel, 'gemini-*': targetModel },
    // Codex's gpt-* names by the Responses default; Qwen Code's own names by the Chat Completions one.
    defaultModels: { 'openai-responses': targetModel, 'openai-chat': targetModel },
  };
}

export interface AgentRig {
  vendor: ScriptedUpstream;
  /** The proxy the agents are given: it refuses and records anything that tries to leave the machine. */
  trap: NetworkTrap;
  /** One gateway (behind its recording proxy) per upstream protocol the agents' models are sent to. */
  gateways: Record<UpstreamProtocol, { gateway: TestGateway; proxy: RecordingProxy }>;
  close(): Promise<void>;
}

/** The scripted vendor and four gateways, each routing every agent model name to one protocol. */
export async function startAgentRig(): Promise<AgentRig> {
  const vendor = await startScriptedUpstream();
  const trap = await startNetworkTrap();
  const gateways = {} as AgentRig['gateways'];
  for (const protocol of UPSTREAM_PROTOCOLS) {
    const gateway = await startTestGateway(agentGatewayConfig(vendor.url, protocol));
    gateways[protocol] = { gateway, proxy: await startRecordingProxy(gateway.url) };
  }
  return {
    vendor,
    trap,
    gateways,
    close: async () => {
      for (const { gateway, proxy } of Object.values(gateways)) {
        await proxy.close();
        await gateway.close();
      }
      await vendor.close();
      await trap.close();
    },
  };
}
