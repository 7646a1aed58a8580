import { describe, expect, it } from 'vitest';
import { createStreamCollector } from '../core/collect-stream.js';
import type { GenerateResponse } from '../core/generate-response.js';
import type { StreamPart } from '../core/stream-part.js';
import { ResponseFollower } from './resume-follow.js';

/**
 * A retry that joined a drain sees the response grow through snapshots (the drain's collector);
 * what the follower makes of them, collected again, must be the drain's final response, whatever
 * moments the snapshots were taken at.
 */
function follow(upstream: readonly StreamPart[], snapshotAfter: (index: number) => boolean): { parts: StreamPart[]; final: GenerateResponse; replayed: GenerateResponse } {
  const drain = createStreamCollector();
  const follower = new ResponseFollower();
  const parts: StreamPart[] = [];
  upstream.forEach((part, index) => {
    drain.add(part);
    if (snapshotAfter(index)) parts.push(...follower.next(drain.result(), false));
  });
  const final = drain.result();
  parts.push(...follower.next(final, true));
  const replay = createStreamCollector();
  for (const part of parts) replay.add(part);
  return { parts, final, replayed: replay.result() };
}

const usage = { input: { total: 3 }, output: { total: 9 } };

describe('ResponseFollower', () => {
  it('sends everything so far at once, then only what arrived since', () => {
    const upstream: StreamPart[] = [
      { type: 'start', id: 'r1', model: 'm' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hel' },
      { type: 'text-delta', id: 't', delta: 'lo' },
      { type: 'text-delta', id: 't', delta: ' you' },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ];
    const { parts, final, replayed } = follow(upstream, (index) => index === 3 || index === 4);
    expect(parts).toEqual([
      { type: 'start', id: 'r1', model: 'm' },
      { type: 'text-start', id: '0' },
      { type: 'text-delta', id: '0', delta: 'Hello' },
      { type: 'text-delta', id: '0', delta: ' you' },
      { type: 'text-end', id: '0' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ]);
    expect(replayed).toEqual(final);
  });

  it('keeps the text of several tool calls whose arguments arrive interleaved (OpenAI parallel calls)', () => {
    const upstream: StreamPart[] = [
      { type: 'start', id: 'r2', model: 'm' },
      { type: 'text-start', id: 'text-0' },
      { type: 'text-delta', id: 'text-0', delta: 'Looking.' },
      { type: 'tool-input-start', id: 'call_a', toolName: 'read' },
      { type: 'tool-input-delta', id: 'call_a', delta: '{"path":' },
      { type: 'tool-input-start', id: 'call_b', toolName: 'list' },
      { type: 'tool-input-delta', id: 'call_b', delta: '{"dir":' },
      // Text for the earlier call after the later one started.
      { type: 'tool-input-delta', id: 'call_a', delta: '"a.txt"}' },
      { type: 'text-delta', id: 'text-0', delta: ' Still.' },
      { type: 'tool-input-delta', id: 'call_b', delta: '"src"}' },
      { type: 'text-end', id: 'text-0' },
      { type: 'tool-input-end', id: 'call_a' },
      { type: 'tool-call', toolCallId: 'call_a', toolName: 'read', input: '{"path":"a.txt"}' },
      { type: 'tool-input-end', id: 'call_b' },
      { type: 'tool-call', toolCallId: 'call_b', toolName: 'list', input: '{"dir":"src"}' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ];
    // Every moment a snapshot could be taken at.
    const { parts, final, replayed } = follow(upstream, () => true);
    expect(final.choices[0].content).toEqual([
      { type: 'text', text: 'Looking. Still.' },
      { type: 'tool-call', toolCallId: 'call_a', toolName: 'read', input: '{"path":"a.txt"}' },
      { type: 'tool-call', toolCallId: 'call_b', toolName: 'list', input: '{"dir":"src"}' },
    ]);
    expect(replayed).toEqual(final);
    // The deltas of each call, put together, are its whole input: a client that reads deltas loses nothing.
    const deltasOf = (id: string) =>
      parts.flatMap((part) => (part.type === 'tool-input-delta' && part.id === id ? [part.delta] : part.type === 'text-delta' && part.id === id ? [part.delta] : [])).join('');
    expect(deltasOf('call_a')).toBe('{"path":"a.txt"}');
    expect(deltasOf('call_b')).toBe('{"dir":"src"}');
    expect(deltasOf('0')).toBe('Looking. Still.');
    // Each part starts once and ends once, its end after its last delta.
    for (const id of ['call_a', 'call_b']) {
      const positions = parts.flatMap((part, index) => ('id' in part && part.id === id ? [[part.type, index] as const] : []));
      expect(positions.filter(([type]) => type === 'tool-input-start')).toHaveLength(1);
      expect(positions.filter(([type]) => type === 'tool-input-end')).toHaveLength(1);
      expect(positions.at(-1)?.[0]).toBe('tool-input-end');
    }
  });

  it('ends a reasoning part when the next part starts, with its signature (a thinking block holds back what follows it)', () => {
    const upstream: StreamPart[] = [
      { type: 'start', id: 'r3', model: 'm' },
      { type: 'reasoning-start', id: 'th' },
      { type: 'reasoning-delta', id: 'th', delta: 'Hmm.' },
      { type: 'reasoning-end', id: 'th', signature: 'sig' },
      { type: 'text-start', id: 'tx' },
      { type: 'text-delta', id: 'tx', delta: 'Yes.' },
      { type: 'text-end', id: 'tx' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage },
    ];
    const { parts, final, replayed } = follow(upstream, (index) => index === 5);
    expect(parts.slice(0, 5)).toEqual([
      { type: 'start', id: 'r3', model: 'm' },
      { type: 'reasoning-start', id: '0' },
      { type: 'reasoning-delta', id: '0', delta: 'Hmm.' },
      { type: 'reasoning-end', id: '0', signature: 'sig' },
      { type: 'text-start', id: '1' },
    ]);
    expect(replayed).toEqual(final);
  });

  it('follows several choices, each with its own finish', () => {
    const upstream: StreamPart[] = [
      { type: 'start', id: 'r4', model: 'm' },
      { type: 'text-start', id: 'a' },
      { type: 'text-start', id: 'b', choice: 1 },
      { type: 'text-delta', id: 'a', delta: 'One' },
      { type: 'text-delta', id: 'b', delta: 'Two', choice: 1 },
      { type: 'text-delta', id: 'a', delta: '!' },
      { type: 'text-end', id: 'a' },
      { type: 'text-end', id: 'b', choice: 1 },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { input: {}, output: {} } },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage, choice: 1 },
    ];
    const { final, replayed } = follow(upstream, (index) => index % 2 === 0);
    expect(final.choices.map((choice) => choice.content)).toEqual([[{ type: 'text', text: 'One!' }], [{ type: 'text', text: 'Two' }]]);
    expect(replayed).toEqual(final);
  });
});
