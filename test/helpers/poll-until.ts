import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Reads until `done` holds, at most `tries` times `intervalMs` apart (what the gateway writes after answering,
 * a record, a log line, is read when it is there); returns the last value either way, for the
 * test's own assertion to say what was wrong.
 */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, { tries = 100, intervalMs = 50 } = {}): Promise<T> {
  let value = await read();
  for (let attempt = 0; attempt < tries && !done(value); attempt += 1) {
    await sleep(intervalMs);
    value = await read();
  }
  return value;
}
