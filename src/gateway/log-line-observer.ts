import { formatInternalError, formatRequestLine } from './format-request-line.js';
import type { GenerationObserver } from './generation-outcome.js';
import type { GatewayLogger } from './run-generation.js';

/**
 * One line per generation that reached an upstream (or the mock models), unless the logger is
 * quiet; and an internal error's cause and stack, always.
 */
export function createLogLineObserver(logger: GatewayLogger): GenerationObserver {
  return {
    finished(outcome) {
      if (outcome.upstream && logger.enabled) {
        const { provider, model } = outcome.upstream;
        logger.info(
          formatRequestLine({
            status: outcome.status,
            inbound: outcome.protocol,
            upstream: `${provider}/${model}`,
            ms: outcome.durationMs,
            usage: outcome.usage(),
            reason: outcome.interrupted,
            error: outcome.error,
          }),
        );
      }
      if (outcome.error?.code === 'internal') logger.error(formatInternalError(outcome.requestId, outcome.error));
    },
  };
}
