import { describe, expect, it } from 'vitest';
import { settle, SETTLE_MAX_PASSES } from './lib/settle.mjs';

/** A side whose warm passes give these req/s in turn (the last one again once they run out). */
function side(rates: number[]) {
  let pass = 0;
  return { passes: () => pass, next: () => ({ rps: rates[Math.min(pass++, rates.length - 1)] }) };
}

describe('settle: warm passes before a paired scenario', () => {
  it('stops once every side has held within 5 % for two passes in a row', async () => {
    const fast = side([1000, 1000, 1000, 1000]);
    const compiling = side([300, 600, 900, 1000, 1010, 1000, 990]);
    const passes = await settle([fast, compiling], (one) => one.next());
    // The second side holds from its fifth pass on (1000 → 1010 → 1000).
    expect(passes).toBe(6);
    expect(fast.passes()).toBe(6);
    expect(compiling.passes()).toBe(6);
  });

  it(`makes at least 3 passes (holding twice takes three), and stops after ${SETTLE_MAX_PASSES} for a side that never holds`, async () => {
    const steady = side([500]);
    expect(await settle([steady], (one) => one.next())).toBe(3);
    const swinging = side(Array.from({ length: 100 }, (_, pass) => (pass % 2 === 0 ? 1000 : 800)));
    expect(await settle([steady, swinging], (one) => one.next())).toBe(SETTLE_MAX_PASSES);
    expect(swinging.passes()).toBe(SETTLE_MAX_PASSES);
  });
});
