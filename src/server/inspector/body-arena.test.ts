import { describe, expect, it } from 'vitest';
import { BodyArena } from './body-arena.js';

describe('BodyArena', () => {
  it('reads back what it was given, across the end of its buffer', () => {
    const arena = new BodyArena({ initialBytes: 64, maxBytes: 64, oldestWanted: () => Infinity });
    const kept: { at: number[]; texts: string[] }[] = [];
    for (let index = 0; index < 20; index += 1) {
      const texts = [`req ${index} é`, `res ${index}`];
      kept.push({ at: arena.write(texts)!, texts });
    }
    // The newest records are whole; older ones, overwritten, read as gone, never as other bytes.
    const last = kept.at(-1)!;
    expect(arena.read(last.at[0]!, last.at[1]!)).toBe('req 19 é');
    expect(arena.read(last.at[1]!, last.at[2]!)).toBe('res 19');
    for (const { at, texts } of kept) {
      const text = arena.read(at[0]!, at[1]!);
      expect(text === undefined || text === texts[0]).toBe(true);
    }
    expect(arena.read(kept[0]!.at[0]!, kept[0]!.at[1]!)).toBeUndefined();
  });

  it('grows rather than overwrite what is still wanted, up to its most', () => {
    let wanted = 0;
    const arena = new BodyArena({ initialBytes: 16, maxBytes: 256, oldestWanted: () => wanted });
    const records = Array.from({ length: 10 }, (_, index) => arena.write([`record number ${index}`])!);
    records.forEach((at, index) => expect(arena.read(at[0]!, at[1]!)).toBe(`record number ${index}`));
    // Past its most it overwrites the oldest, wanted or not.
    wanted = records[5]![0]!;
    for (let index = 10; index < 40; index += 1) arena.write([`record number ${index}`]);
    expect(arena.read(records[5]![0]!, records[5]![1]!)).toBeUndefined();
    expect(arena.write(['x'.repeat(257)])).toBeUndefined();
  });
});
