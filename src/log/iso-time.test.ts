import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.js';

describe('isoTime', () => {
  it('is toISOString, in and across seconds, days and years, fractions of a millisecond included', () => {
    const times = [0, 1, 999, 1000, 1_764_331_200_000, 1_764_331_200_999.9, 1_764_331_201_000, 1_764_374_399_999, 1_764_374_400_000, 253_402_300_799_999];
    let at = 1_764_331_199_000;
    for (let step = 0; step < 5000; step += 1) {
      at += (step * 7919) % 613;
      times.push(at, at + 0.5);
    }
    for (const time of times) expect(isoTime(time), String(time)).toBe(new Date(time).toISOString());
  });
});
