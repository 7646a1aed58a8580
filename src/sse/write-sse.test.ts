import { describe, expect, it } from 'vitest';
import { formatSseEvent, sseData, sseEvent } from './write-sse.js';

describe('sseData and sseEvent', () => {
  it('write data-only records', () => {
    expect(sseData('{"a":1}')).toBe('data: {"a":1}\n\n');
  });
  it('write named records', () => {
    expect(sseEvent('ping', '{"type":"ping"}')).toBe('event: ping\ndata: {"type":"ping"}\n\n');
  });
});

describe('formatSseEvent', () => {
  it('writes parsed events back, named or not', () => {
    expect(formatSseEvent({ data: '{"a":1}' })).toBe('data: {"a":1}\n\n');
    expect(formatSseEvent({ event: 'ping', data: '{"type":"ping"}' })).toBe('event: ping\ndata: {"type":"ping"}\n\n');
  });
  it('splits multi-line data over data lines', () => {
    expect(formatSseEvent({ data: 'a\nb' })).toBe('data: a\ndata: b\n\n');
  });
});
