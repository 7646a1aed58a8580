import type { GatewayConfig } from '../config/config-types.js';
import type { RecoverySink } from '../gateway/recovery-sink.js';
import type { GatewayLogger } from '../gateway/run-generation.js';

/** Where interrupted generations go. */
export async function createRecoverySink(_home: string, _config: GatewayConfig, logger: GatewayLogger): Promise<RecoverySink> {
  return {
    async save(generation) {
      logger.warn(`interrupted: ${generation.requestId} (${generation.reason})`);
    },
  };
}
