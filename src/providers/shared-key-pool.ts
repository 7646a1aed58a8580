import { createHash } from 'node:crypto';
import type { GatewayConfig, ProviderConfig } from '../config/config-types.js';
import { MemoryKeyPool, type KeyPool } from './key-pool.js';

/**
 * What one instance learned of one key, as the instances share it. The key is named by its
 * SHA-256 (the key itself never leaves the process), the provider by its id and its config by the
 * SHA-256 of its JSON: a changed config is a new scope, where every key starts afresh.
 */
export interface KeyState {
  provider: string;
  configHash: string;
  keyHash: string;
  /** Refused (401/403): not used again under this config. */
  setAside: boolean;
  /**
   * Rate-limited (429): how long the key rests from now. Counted in milliseconds rather than
   * sent as a time, so that the instances' clocks need not agree; read back, what is left of it
   * (0 or less: over).
   */
  restMs: number | undefined;
}

/** The providers' configs whose states a poll reads. */
export interface KeyStateScope {
  provider: string;
  configHash: string;
}

/**
 * Where the instances' key states meet (store/postgres-key-states.ts). It never throws: a store
 * that cannot be reached says so in its own log, once per outage, and answers false or undefined.
 */
export interface KeyStateStore {
  /** false when the store could not take it: the pool writes it again once the store answers. */
  write(state: KeyState): Promise<boolean>;
  /**
   * The states of `scopes` changed since `since`, or every one in force when `since` is
   * undefined, with the `since` of the next look (on the store's clock, which alone orders the
   * writes of all instances); undefined when the store could not be read.
   */
  changedSince(since: Date | undefined, scopes: readonly KeyStateScope[]): Promise<{ states: KeyState[]; next: Date } | undefined>;
  close(): Promise<void>;
}

export interface SharedKeyPoolOptions {
  store: KeyStateStore;
  /** The config in force: its providers are those whose states are read, and where keys are found by hash. */
  getConfig: () => GatewayConfig;
  /** Failures of the pool itself (the store logs its own). */
  log: (message: string) => void;
  /** How often the others' states are read (default 1 s). */
  pollMs?: number;
  /** The clock the gateway gives `pick` and `rest` (default Date.now). */
  now?: () => number;
}

/** A provider's config as the store names it, and its keys by hash. Made once per config object. */
class ProviderHashes {
  readonly configHash: string;
  readonly keyOf = new Map<string, string>();
  readonly hashOf = new Map<string, string>();

  constructor(provider: ProviderConfig) {
    this.configHash = sha256(JSON.stringify(provider));
    for (const key of provider.apiKeys ?? []) {
      const hash = sha256(key);
      this.keyOf.set(hash, key);
      this.hashOf.set(key, hash);
    }
  }
}

/** A state this instance learned that the store has not taken yet; a rest kept as its end. */
interface UnwrittenState {
  state: KeyState;
  until: number | undefined;
}

/**
 * The key pools shared by the gateway instances on one database (docs/team.md): a key one
 * instance found refused is skipped by all, a rest one learned is respected by all. `pick` stays
 * what it is in memory, on the request's path and free; what this instance learns is applied to
 * its memory at once and written to the store in the background, never awaited by a request;
 * what the others learned is read every `pollMs` and applied for the providers of the config in
 * force. While the store is unreachable the pool works from memory, and what it learned meanwhile
 * is written once the store answers again.
 */
export class SharedKeyPool implements KeyPool {
  readonly #memory = new MemoryKeyPool();
  readonly #store: KeyStateStore;
  readonly #getConfig: () => GatewayConfig;
  readonly #log: (message: string) => void;
  readonly #now: () => number;
  readonly #hashes = new WeakMap<ProviderConfig, ProviderHashes>();
  /** Provider configs whose states were read in full; a new one (a reload) is read in full by the next poll. */
  readonly #loaded = new WeakSet<ProviderConfig>();
  /** By scope and key hash: merged, so that each key is written once when the store is back. */
  readonly #unwritten = new Map<string, UnwrittenState>();
  readonly #writes = new Set<Promise<void>>();
  readonly #timer: NodeJS.Timeout;
  #since: Date | undefined;
  #polling: Promise<void> | undefined;
  /** The store failed its last write or read: new states wait in #unwritten rather than queue up. */
  #storeDown = false;
  #closed = false;

  constructor(options: SharedKeyPoolOptions) {
    this.#store = options.store;
    this.#getConfig = options.getConfig;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
    this.#timer = setInterval(() => {
      if (this.#polling === undefined) void this.poll();
    }, options.pollMs ?? 1000);
    this.#timer.unref();
  }

  pick(provider: ProviderConfig, now: number, tried?: readonly string[]): string | undefined {
    return this.#memory.pick(provider, now, tried);
  }

  setAside(provider: ProviderConfig, key: string): boolean {
    const first = this.#memory.setAside(provider, key);
    if (first && provider.apiKeys !== undefined) this.#share(provider, key, true, undefined);
    return first;
  }

  rest(provider: ProviderConfig, key: string, until: number): void {
    this.#memory.rest(provider, key, until);
    if (provider.apiKeys !== undefined) this.#share(provider, key, false, until);
  }

  /**
   * Reads what the others learned since the last look and applies it. The timer calls it; a call
   * while a poll runs starts a new one after it, so that a caller (a test) sees every write that
   * ended before its call.
   */
  poll(): Promise<void> {
    const next = (this.#polling ?? Promise.resolve()).then(() => this.#read());
    this.#polling = next;
    void next.finally(() => {
      if (this.#polling === next) this.#polling = undefined;
    });
    return next;
  }

  /** Settles once the writes in flight have ended (written, or kept for later). */
  async settled(): Promise<void> {
    while (this.#writes.size > 0) await Promise.all(this.#writes);
  }

  /** Stops polling, lets the writes in flight end, and closes the store. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#polling;
    await this.settled();
    if (this.#unwritten.size > 0) this.#log(`key pools: ${this.#unwritten.size} key state(s) learned here were never shared, the database being unreachable when the gateway stopped`);
    await this.#store.close();
  }

  #share(provider: ProviderConfig, key: string, setAside: boolean, until: number | undefined): void {
    const hashes = this.#hashesOf(provider);
    const keyHash = hashes.hashOf.get(key);
    if (keyHash === undefined) return;
    this.#write({ state: { provider: provider.id, configHash: hashes.configHash, keyHash, setAside, restMs: undefined }, until });
  }

  #write(unwritten: UnwrittenState): void {
    if (this.#closed || this.#storeDown) {
      this.#keep(unwritten);
      return;
    }
    const restMs = unwritten.until === undefined ? undefined : unwritten.until - this.#now();
    // A rest over before the store took it has nothing left to say.
    if (!unwritten.state.setAside && (restMs === undefined || restMs <= 0)) return;
    const state = Object.assign({}, unwritten.state, { restMs: restMs !== undefined && restMs > 0 ? restMs : undefined });
    const write = this.#store
      .write(state)
      .then((written) => {
        if (written) return;
        this.#storeDown = true;
        this.#keep(unwritten);
      })
      .catch((error: unknown) => this.#log(`key pools: could not share a key state: ${(error as Error).message ?? String(error)}`))
      .finally(() => this.#writes.delete(write));
    this.#writes.add(write);
  }

  #keep(unwritten: UnwrittenState): void {
    const { state, until } = unwritten;
    const id = `${state.provider}\n${state.configHash}\n${state.keyHash}`;
    const kept = this.#unwritten.get(id);
    if (kept === undefined) {
      this.#unwritten.set(id, { state: Object.assign({}, state), until });
      return;
    }
    kept.state.setAside ||= state.setAside;
    if (until !== undefined && (kept.until === undefined || kept.until < until)) kept.until = until;
  }

  async #read(): Promise<void> {
    if (this.#closed) return;
    try {
      const providers = this.#getConfig().providers.filter((provider) => provider.apiKeys !== undefined);
      if (providers.length === 0) return;
      const fresh = providers.some((provider) => !this.#loaded.has(provider));
      const scopes = providers.map((provider) => ({ provider: provider.id, configHash: this.#hashesOf(provider).configHash }));
      const changed = await this.#store.changedSince(fresh ? undefined : this.#since, scopes);
      if (changed === undefined) {
        this.#storeDown = true;
        return;
      }
      this.#since = changed.next;
      for (const provider of providers) this.#loaded.add(provider);
      this.#apply(changed.states, providers);
      this.#storeDown = false;
      this.#writeUnwritten();
    } catch (error) {
      this.#log(`key pools: could not read the key states shared by the other instances: ${(error as Error).message ?? String(error)}`);
    }
  }

  #apply(states: readonly KeyState[], providers: readonly ProviderConfig[]): void {
    const now = this.#now();
    for (const state of states) {
      const provider = providers.find((candidate) => candidate.id === state.provider);
      if (provider === undefined) continue;
      const hashes = this.#hashesOf(provider);
      const key = hashes.keyOf.get(state.keyHash);
      // A state of another config of the provider (an instance not reloaded yet, or already ahead).
      if (key === undefined || hashes.configHash !== state.configHash) continue;
      if (state.setAside) this.#memory.setAside(provider, key);
      if (state.restMs !== undefined && state.restMs > 0) this.#memory.extendRest(provider, key, now + state.restMs);
    }
  }

  #writeUnwritten(): void {
    const waiting = [...this.#unwritten.values()];
    this.#unwritten.clear();
    for (const unwritten of waiting) this.#write(unwritten);
  }

  #hashesOf(provider: ProviderConfig): ProviderHashes {
    let hashes = this.#hashes.get(provider);
    if (hashes === undefined) {
      hashes = new ProviderHashes(provider);
      this.#hashes.set(provider, hashes);
    }
    return hashes;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
