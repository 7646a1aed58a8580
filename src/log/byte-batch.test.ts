import { describe, expect, it } from 'vitest';
import { ByteBatch } from './byte-batch.js';

describe('ByteBatch', () => {
  it('hands over exactly the UTF-8 of what was added, growing past its first buffer', () => {
    const batch = new ByteBatch();
    const lines = Array.from({ length: 5000 }, (_, index) => `line ${index}: ünïcödé → 😀`);
    for (const line of lines) batch.addLine(line);
    const taken = batch.take();
    expect(taken.length).toBeGreaterThan(64 * 1024);
    expect(taken.toString('utf8')).toBe(lines.map((line) => `${line}\n`).join(''));
    expect(batch.length).toBe(0);
  });

  it('leaves what it handed over untouched by what comes next', () => {
    const batch = new ByteBatch();
    batch.addLine('first');
    const first = batch.take();
    batch.addLine('second');
    expect(first.toString()).toBe('first\n');
    expect(batch.take().toString()).toBe('second\n');
  });
});
