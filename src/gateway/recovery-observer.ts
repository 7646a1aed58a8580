import type { GenerationObserver, GenerationOutcome } from './generation-outcome.js';
import type { DrainingRecord, InterruptedGeneration, InterruptedReason, RecoverySink } from './recovery-sink.js';
import type { Resumer } from './resume-generation.js';

/**
 * Interrupted generations become recovery records: from the moment a drain starts (completed in
 * place when it ends), or at once when the generation ended early in any other way. A drain is
 * also handed to the `resumer`, so that a retry of the same request can join it, or be answered
 * from its record once complete.
 */
export function createRecoveryObserver(sink: RecoverySink, resumer?: Resumer, now: () => number = Date.now): GenerationObserver {
  const drains = new WeakMap<GenerationOutcome, { record: DrainingRecord; resumable: ReturnType<Resumer['draining']> }>();
  return {
    draining(outcome) {
      const record = sink.open(interruptedGeneration(outcome, 'client_disconnected'), () => outcome.responseBodyText());
      drains.set(outcome, { record, resumable: resumer?.draining(outcome, now()) });
    },
    finished(outcome) {
      const drain = drains.get(outcome);
      if (outcome.interrupted && !drain) return sink.save(interruptedGeneration(outcome, outcome.interrupted));
      if (!drain) return undefined;
      // A drain's record exists already: it is completed (whatever ended the drain), not made again.
      const generation = interruptedGeneration(outcome, outcome.interrupted ?? 'client_disconnected');
      const resumable = drain.resumable;
      // A retry that joined the drain got the whole answer only if the drain ran to its end.
      if (resumable?.usedBy !== undefined && outcome.error === undefined) generation.resumedBy = resumable.usedBy;
      const completed = drain.record.complete(generation);
      if (resumable) resumer!.drained(resumable, outcome, completed.catch(() => undefined));
      return completed;
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
