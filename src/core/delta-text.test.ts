import { describe, expect, it } from 'vitest';
import { DeltaText } from './delta-text.js';

describe('DeltaText', () => {
  it('gives back every delta in order, across batches and reads', () => {
    const text = new DeltaText();
    const deltas = Array.from({ length: 300 }, (_, index) => `d${index} `);
    let expected = '';
    for (const [index, delta] of deltas.entries()) {
      text.append(delta);
      expected += delta;
      // Reads in the middle of a batch, at its edge and past it change nothing of what follows.
      if (index === 10 || index === 63 || index === 64 || index === 200) expect(text.toString()).toBe(expected);
    }
    expect(text.toString()).toBe(expected);
    expect(text.toString()).toBe(expected);
  });

  it('starts from a whole value when given one', () => {
    const text = new DeltaText('{"path":');
    text.append('"a"}');
    expect(text.toString()).toBe('{"path":"a"}');
  });

  it('is empty until something is appended, and keeps empty deltas and any characters as they are', () => {
    const text = new DeltaText();
    expect(text.toString()).toBe('');
    for (const delta of ['', 'é', '👋', '', '\n', '{"a":']) text.append(delta);
    expect(text.toString()).toBe('é👋\n{"a":');
  });
});
