import { parseConfig } from '../../src/config/parse-config.js';
import type { InterruptedGeneration, RecoverySink } from '../../src/gateway/recovery-sink.js';
import { createLogger } from '../../src/server/create-logger.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';

export interface TestGateway {
  url: string;
  server: RunningServer;
  /** Interrupted generations handed to the recoveries sink. */
  interrupted: InterruptedGeneration[];
  logs: string[];
  close(): Promise<void>;
}

/**
 * The real server on a random port of 127.0.0.1, configured from raw config JSON with an empty
 * environment (no provider is created from the machine's variables).
 */
export async function startTestGateway(rawConfig: Record<string, unknown> = {}, recoveries?: RecoverySink): Promise<TestGateway> {
  const config = parseConfig(rawConfig, {});
  const interrupted: InterruptedGeneration[] = [];
  const logs: string[] = [];
  const sink: RecoverySink = recoveries ?? { save: async (generation) => void interrupted.push(generation) };
  const server = await startServer({ config, logger: createLogger({ write: (line) => logs.push(line) }), recoveries: sink, host: '127.0.0.1', port: 0 });
  return { url: server.url, server, interrupted, logs, close: async () => void (await server.close(1000)) };
}
