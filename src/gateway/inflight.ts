/**
 * The generations in flight, so that a shutdown can give them a grace period, then stop the rest
 * (each stopped one is recorded with reason `server_shutdown`) and wait for their records.
 */
export interface InflightEntry {
  /** Stops the generation now; it records itself as interrupted by the shutdown. */
  stop(): void;
  /** Settles when the generation has ended and its record, if any, is written. */
  done: Promise<void>;
}

export interface InflightRegistry {
  add(entry: InflightEntry): void;
  delete(entry: InflightEntry): void;
  readonly size: number;
  /** Waits up to `graceMs` for running generations, then stops the rest and waits for them. */
  drain(graceMs: number): Promise<{ finished: number; stopped: number }>;
}

export function createInflightRegistry(): InflightRegistry {
  const entries = new Set<InflightEntry>();
  return {
    add(entry) {
      entries.add(entry);
    },
    delete(entry) {
      entries.delete(entry);
    },
    get size() {
      return entries.size;
    },
    async drain(graceMs) {
      const initial = entries.size;
      if (initial === 0) return { finished: 0, stopped: 0 };
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([Promise.allSettled([...entries].map((entry) => entry.done)), graceOver]);
      clearTimeout(timer);
      const remaining = [...entries];
      for (const entry of remaining) entry.stop();
      await Promise.allSettled(remaining.map((entry) => entry.done));
      return { finished: initial - remaining.length, stopped: remaining.length };
    },
  };
}
