import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backoffDelayMs, withStoreLock } from './store-lock.js';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'switchyard-lock-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('withStoreLock', () => {
  it('lets one holder in at a time and releases on failure', async () => {
    let inside = 0;
    let mostInside = 0;
    const options = { staleMs: 10_000, timeoutMs: 5000 };
    const hold = () =>
      withStoreLock(directory, options, async () => {
        inside += 1;
        mostInside = Math.max(mostInside, inside);
        await sleep(5);
        inside -= 1;
      });
    await expect(withStoreLock(directory, options, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await Promise.all(Array.from({ length: 6 }, hold));
    expect(mostInside).toBe(1);
  });
});

describe('backoffDelayMs', () => {
  it('doubles from 5 ms up to 200 ms, randomised between half and all', () => {
    expect([0, 1, 2, 5, 6, 20].map((attempt) => backoffDelayMs(attempt, () => 1))).toEqual([5, 10, 20, 160, 200, 200]);
    expect(backoffDelayMs(6, () => 0)).toBe(100);
  });
});
