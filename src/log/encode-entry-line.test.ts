import { describe, expect, it } from 'vitest';
import { encodeEntryLine } from './encode-entry-line.js';
import type { RequestLogEntry } from './request-log.js';

/** A small seeded generator (mulberry32): the same entries on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_TEXTS = ['', 'gpt-4o', 'claude "quoted"', 'back\\slash', 'line\nbreak\ttab\r', '\u0000\u001f\u007f', 'émoji 🚀 ünï', 'lone \ud800 surrogate', '\udc00', 'a'.repeat(300), '→', '</script>', 'null', '{"a":1}'];
const ODD_NUMBERS = [0, 1, 9, 10, 99, 12345, 4294967296, 2 ** 53, -1, -0, 0.5, 1e-7, 1.5e21, 0.000123456789, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];

function randomEntry(next: () => number): RequestLogEntry {
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)];
  const text = () => (next() < 0.5 ? pick(ODD_TEXTS) : `t-${Math.floor(next() * 1000)}`);
  const count = () => (next() < 0.2 ? null : next() < 0.5 ? pick(ODD_NUMBERS) : Math.floor(next() * 100_000));
  return {
    request_id: next() < 0.8 ? crypto.randomUUID() : text(),
    time: next() < 0.9 ? new Date(Math.floor(next() * 4e12)).toISOString() : text(),
    user: text(),
    protocol: pick(['openai-chat', 'anthropic-messages', text()]),
    endpoint: pick(['/v1/chat/completions', '/v1/messages', text()]),
    model: text(),
    upstream: next() < 0.2 ? null : text(),
    attempts: Math.floor(next() * 4),
    mode: pick(['passthrough', 'translate', 'mock', null] as const),
    status: pick([200, 400, 429, 502]),
    stream: next() < 0.5,
    duration_ms: pick(ODD_NUMBERS),
    ttfb_ms: count(),
    input_tokens: count(),
    output_tokens: count(),
    cached_tokens: count(),
    cache_write_tokens: count(),
    reasoning_tokens: count(),
    cost_usd: next() < 0.3 ? null : next() * 0.01,
    interrupted_reason: next() < 0.8 ? null : text(),
    resumed_from: next() < 0.9 ? null : text(),
    warnings: next() < 0.8 ? [] : [text(), text()],
    user_agent: next() < 0.1 ? null : text(),
  };
}

describe('encodeEntryLine', () => {
  it('is JSON.stringify of the entry, for 5,000 seeded entries with odd text and numbers', () => {
    const next = random(26);
    for (let index = 0; index < 5000; index += 1) {
      const entry = randomEntry(next);
      expect(encodeEntryLine(entry)).toBe(JSON.stringify(entry));
    }
  });

  it('stays JSON.stringify once its kept values have started over, and for values too long to keep', () => {
    const next = random(7);
    const base = randomEntry(next);
    for (let index = 0; index < 2000; index += 1) {
      const entry: RequestLogEntry = { ...base, warnings: [], model: `model-${index % 700}`, user_agent: index % 3 === 0 ? `agent/${'x'.repeat(300)}${index}` : `agent/${index}` };
      expect(encodeEntryLine(entry)).toBe(JSON.stringify(entry));
    }
  });
});
