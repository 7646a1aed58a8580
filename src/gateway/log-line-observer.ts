import { formatInternalError, formatRequestLine } from './format-request-line.js';
import type { AttemptReport, GenerationObserver } from './generation-outcome.js';
import type { GatewayLogger } from './run-generation.js';

/**
 * One line per generation that reached an upstream (or the mock models), unless the logger is
 * quiet; and an internal error's cause and stack, always.
 */
export function createLogLineObserver(logger: GatewayLogger): GenerationObserver {
  return {
    finished(outcome) {
      if ((outcome.upstream || outcome.resumedFrom !== undefined) && logger.enabled) {
        logger.info(
          formatRequestLine({
            status: outcome.status,
            inbound: outcome.protocol,
            // A retry answered from a recovery record names the record instead of an upstream.
            upstream: outcome.upstream ? `${outcome.upstream.provider}/${outcome.upstream.model}` : `resumed from ${outcome.resumedFrom}`,
            ms: outcome.durationMs,
            usage: outcome.usage(),
            reason: outcome.interrupted,
            error: outcome.error,
            failedAttempts: outcome.attempts.length > 1 || outcome.attempts[0]?.error !== undefined ? formatFailedAttempts(outcome.attempts) : undefined,
          }),
        );
      }
      if (outcome.error?.code === 'internal') logger.error(formatInternalError(outcome.requestId, outcome.error));
    },
  };
}

/** Each failed attempt: provider/model, its status (none when it never answered), and the wait that followed it. */
function formatFailedAttempts(attempts: readonly AttemptReport[]): string | undefined {
  const failed: string[] = [];
  attempts.forEach((attempt, index) => {
    if (attempt.error === undefined) return;
    const wait = attempts[index + 1]?.waitMs;
    failed.push(`${attempt.provider}/${attempt.model}:${attempt.status ?? 'no-answer'}${wait ? `+wait=${wait}ms` : ''}`);
  });
  return failed.length === 0 ? undefined : failed.join(',');
}
