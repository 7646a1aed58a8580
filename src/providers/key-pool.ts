import type { ProviderConfig } from '../config/config-types.js';

/**
 * Which of a provider's keys a request uses. Behind an interface so that a store shared between
 * gateway instances can take its place; this one keeps the state in the process.
 */
export interface KeyPool {
  /**
   * The key for the next request to `provider`: its one key, or the next of its pool in turn that
   * is neither set aside nor resting (nor in `tried`). When every usable key rests, the one whose
   * rest ends first; undefined when every key is set aside or tried.
   */
  pick(provider: ProviderConfig, now: number, tried?: readonly string[]): string | undefined;
  /** The upstream refused the key (401/403): it is not used again until the config changes. True the first time. */
  setAside(provider: ProviderConfig, key: string): boolean;
  /** The upstream rate-limited the key (429): the others carry on until `until`. */
  rest(provider: ProviderConfig, key: string, until: number): void;
}

class PoolState {
  next = 0;
  readonly setAside = new Set<string>();
  readonly restingUntil = new Map<string, number>();
}

export class MemoryKeyPool implements KeyPool {
  // Keyed by the provider's config object: a changed config is a new object, with every key back.
  readonly #states = new WeakMap<ProviderConfig, PoolState>();

  pick(provider: ProviderConfig, now: number, tried?: readonly string[]): string | undefined {
    const keys = provider.apiKeys;
    if (keys === undefined) return tried?.includes(provider.apiKey ?? '') ? undefined : provider.apiKey;
    const state = this.#state(provider);
    let soonest: string | undefined;
    let soonestEnd = Infinity;
    for (let step = 0; step < keys.length; step += 1) {
      const index = (state.next + step) % keys.length;
      const key = keys[index];
      if (state.setAside.has(key) || tried?.includes(key)) continue;
      const until = state.restingUntil.get(key);
      if (until === undefined || until <= now) {
        if (until !== undefined) state.restingUntil.delete(key);
        state.next = (index + 1) % keys.length;
        return key;
      }
      if (until < soonestEnd) {
        soonest = key;
        soonestEnd = until;
      }
    }
    return soonest;
  }

  setAside(provider: ProviderConfig, key: string): boolean {
    const state = this.#state(provider);
    if (state.setAside.has(key)) return false;
    state.setAside.add(key);
    return true;
  }

  rest(provider: ProviderConfig, key: string, until: number): void {
    if (provider.apiKeys !== undefined) this.#state(provider).restingUntil.set(key, until);
  }

  /**
   * A rest another instance learned (shared-key-pool.ts): kept only when it ends later than the
   * one known here, so the same rest read again, or an older one, never shortens it.
   */
  extendRest(provider: ProviderConfig, key: string, until: number): void {
    if (provider.apiKeys === undefined) return;
    const resting = this.#state(provider).restingUntil;
    if ((resting.get(key) ?? -Infinity) < until) resting.set(key, until);
  }

  #state(provider: ProviderConfig): PoolState {
    let state = this.#states.get(provider);
    if (state === undefined) {
      state = new PoolState();
      this.#states.set(provider, state);
    }
    return state;
  }
}

/** How a key is named in logs: its last four characters, never more. */
export function describeKey(key: string): string {
  return `…${key.slice(-4)}`;
}
