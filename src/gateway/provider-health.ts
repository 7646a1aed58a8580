import type { CooldownConfig, ProviderConfig } from '../config/config-types.js';

/**
 * Which providers failed too often lately. Behind an interface so that a store shared between
 * gateway instances can take its place; this one keeps the state in the process, by provider id
 * (a config reload keeps what was learnt).
 */
export interface ProviderHealth {
  /** Whether the provider is cooling down: skipped while another target can serve. */
  coolingDown(provider: ProviderConfig, now: number): boolean;
  /** A request to the provider failed, after its retries. */
  failed(provider: ProviderConfig, now: number, cooldown: CooldownConfig): void;
  /** A request to the provider got its answer: the count starts again. */
  succeeded(provider: ProviderConfig): void;
}

class Failures {
  inARow = 0;
  until = 0;
}

export class MemoryProviderHealth implements ProviderHealth {
  readonly #failures = new Map<string, Failures>();

  coolingDown(provider: ProviderConfig, now: number): boolean {
    const failures = this.#failures.get(provider.id);
    return failures !== undefined && failures.until > now;
  }

  failed(provider: ProviderConfig, now: number, cooldown: CooldownConfig): void {
    let failures = this.#failures.get(provider.id);
    if (failures === undefined) {
      failures = new Failures();
      this.#failures.set(provider.id, failures);
    }
    failures.inARow += 1;
    if (failures.inARow >= cooldown.failures) {
      failures.until = now + cooldown.ms;
      failures.inARow = 0;
    }
  }

  succeeded(provider: ProviderConfig): void {
    // Nothing is made or deleted for a provider that never failed: the healthy path stays free.
    if (this.#failures.size !== 0) this.#failures.delete(provider.id);
  }
}
