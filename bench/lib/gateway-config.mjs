// The gateway's configuration in the benchmark: the fake upstream as a Chat provider (model `m`)
// and as a Gemini one (model `g`), no mock models, no model discovery.
import { writeFile } from 'node:fs/promises';

export function writeGatewayConfig(file, upstreamUrl) {
  return writeFile(
    file,
    JSON.stringify({
      providers: {
        up: { type: 'openai-chat', baseURL: `${upstreamUrl}/v1`, apiKey: 'upstream-key', models: ['m'], discoverModels: false },
        gem: { type: 'gemini', baseURL: upstreamUrl, apiKey: 'upstream-key', models: ['g'], discoverModels: false },
        mock: false,
      },
    }),
  );
}
