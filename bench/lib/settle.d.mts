// Types of bench/lib/settle.mjs, for its test.
export const SETTLE_MAX_PASSES: number;
export function settle<Side>(sides: readonly Side[], warm: (side: Side) => Promise<{ rps: number }> | { rps: number }): Promise<number>;
