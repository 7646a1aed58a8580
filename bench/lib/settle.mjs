// Warm passes before a paired scenario's rounds (bench/lib/run-paired.mjs), until both sides hold.

/** Warm passes each side gets at most before the measured rounds (at least 3: holding twice takes three). */
export const SETTLE_MAX_PASSES = 20;
/** A side holds when its req/s over a warm pass is within this fraction of the pass before. */
const SETTLE_TOLERANCE = 0.05;

/**
 * Warm passes for every side, in alternation, until each has held for two passes in a row (or the
 * bounded number of passes is spent); returns the passes made. `warm(side)` runs one pass and
 * resolves with its `{ rps }`. Two freshly started gateways take 10–30 s of load at c=10 to
 * settle (V8 compiling): with a single 1-s pass each, the first rounds measured one side still
 * compiling, and a gateway against itself came out at 0.57× in its second round.
 */
export async function settle(sides, warm) {
  const last = sides.map(() => undefined);
  const held = sides.map(() => 0);
  for (let pass = 0; pass < SETTLE_MAX_PASSES; pass += 1) {
    for (const [index, side] of sides.entries()) {
      const { rps } = await warm(side);
      held[index] = last[index] !== undefined && Math.abs(rps / last[index] - 1) <= SETTLE_TOLERANCE ? held[index] + 1 : 0;
      last[index] = rps;
    }
    if (held.every((count) => count >= 2)) return pass + 1;
  }
  return SETTLE_MAX_PASSES;
}
