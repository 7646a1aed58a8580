import type { GenerationObserver, GenerationOutcome } from './generation-outcome.js';
import type { DrainingRecord, InterruptedGeneration, InterruptedReason, RecoverySink } from './recovery-sink.js';

/**
 * Interrupted generations become recovery records: from the moment a drain starts (completed in
 * place when it ends), or at once when the generation ended early in any other way.
 */
export function createRecoveryObserver(sink: RecoverySink): GenerationObserver {
  const drains = new WeakMap<GenerationOutcome, DrainingRecord>();
  return {
    draining(outcome) {
      drains.set(outcome, sink.open(interruptedGeneration(outcome, 'client_disconnected'), () => outcome.responseBodyText()));
    },
    finished(outcome) {
      const draining = drains.get(outcome);
      // A drain's record exists already: it is completed (whatever ended the drain), not made again.
      if (draining) return draining.complete(interruptedGeneration(outcome, outcome.interrupted ?? 'client_disconnected'));
      if (outcome.interrupted) return sink.save(interruptedGeneration(outcome, outcome.interrupted));
      return undefined;
    },
  };
}

function interruptedGeneration(outcome: GenerationOutcome, reason: InterruptedReason): InterruptedGeneration {
  const generation: InterruptedGeneration = {
    requestId: outcome.requestId,
    reason,
    user: outcome.user,
    model: outcome.model,
    protocol: outcome.protocol,
    provider: outcome.upstream?.provider ?? '',
    requestBodyText: outcome.requestBodyText(),
    responseBodyText: outcome.responseBodyText(),
  };
  if (outcome.error) generation.errorMessage = outcome.error.message;
  return generation;
}
