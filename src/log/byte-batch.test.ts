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

  it('fills a buffer given back for the next batch, and never one still handed out', () => {
    const batch = new ByteBatch();
    batch.addLine('first');
    const first = batch.take();
    batch.addLine('second');
    const second = batch.take();
    // `first` was not given back: `second` lies elsewhere and `first` is intact.
    expect(second.buffer).not.toBe(first.buffer);
    expect(first.toString()).toBe('first\n');
    batch.release(first);
    batch.addLine('third');
    const third = batch.take();
    expect(third.toString()).toBe('third\n');
    batch.addLine('fourth');
    const fourth = batch.take();
    expect(fourth.buffer).toBe(first.buffer);
    expect(fourth.toString()).toBe('fourth\n');
    expect(second.toString()).toBe('second\n');
    expect(third.toString()).toBe('third\n');
  });

  it('lets go of a buffer given back that is far larger than the next batch needs', () => {
    const batch = new ByteBatch();
    batch.addText('x'.repeat(2 * 2 ** 20));
    const burst = batch.take();
    batch.take();
    batch.release(burst);
    batch.addLine('small');
    batch.take();
    batch.addLine('next');
    expect(batch.take().buffer).not.toBe(burst.buffer);
  });
});
