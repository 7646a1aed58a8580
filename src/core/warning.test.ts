import { describe, expect, it } from 'vitest';
import { formatWarnings } from './warning.js';

describe('formatWarnings', () => {
  it('joins warnings as printable ASCII', () => {
    expect(formatWarnings([{ type: 'dropped', feature: 'top_k', details: 'no such field — here' }, { type: 'changed', feature: 'temperature' }])).toBe(
      'dropped top_k: no such field ? here; changed temperature',
    );
  });

  it('stays under the header limit and says how many were left out', () => {
    const many = Array.from({ length: 500 }, (_, index) => ({ type: 'dropped' as const, feature: `tools[${index}]`, details: 'a built-in tool of another vendor' }));
    const value = formatWarnings(many);
    expect(value.length).toBeLessThan(4100);
    expect(value).toMatch(/; \(\+\d+ more\)$/);
    const shown = value.split('; ').length - 1;
    expect(value.endsWith(`(+${500 - shown} more)`)).toBe(true);
  });
});
