import { startCuttingProxy, type CuttingProxy } from './cutting-proxy.js';
import { SlowChatUpstream } from './slow-chat-upstream.js';
import { startTestGateway, type TestGateway } from './test-gateway.js';

/** A slow upstream, a gateway serving it as `slow/slow`, and a TCP proxy in front of the gateway that can cut a client off. */
export interface CutRig {
  upstream: SlowChatUpstream;
  gateway: TestGateway;
  proxy: CuttingProxy;
  close(): Promise<void>;
}

/**
 * What the resume tests stand on: an OpenAI-style upstream that answers `pieces`, one every
 * `pieceMs`, a gateway with it as provider `slow` (model `slow`) and `config` added, and a
 * cutting proxy whose address the gateway accepts as a Host.
 */
export async function startCutRig(pieces: readonly string[], pieceMs: number, config: Record<string, unknown> = {}): Promise<CutRig> {
  const upstream = new SlowChatUpstream(pieces, pieceMs);
  await upstream.listen();
  let gateway: TestGateway | undefined;
  const proxy = await startCuttingProxy(() => gateway!.url);
  gateway = await startTestGateway(
    Object.assign(
      {
        server: { allowedHosts: [new URL(proxy.url).host] },
        providers: { slow: { type: 'openai-chat', baseURL: `${upstream.url}/v1`, apiKey: 'k', models: ['slow'], discoverModels: false } },
      },
      config,
    ),
  );
  const started = gateway;
  return {
    upstream,
    gateway: started,
    proxy,
    async close() {
      await proxy.close();
      await started.close();
      await new Promise((resolve) => upstream.server.close(resolve));
    },
  };
}
