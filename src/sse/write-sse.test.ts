import { describe, expect, it } from 'vitest';
import { formatOutboundChunks, formatSseEvent } from './write-sse.js';

describe('formatSseEvent', () => {
  it('writes data-only records', () => {
    expect(formatSseEvent({ data: '{"a":1}' })).toBe('data: {"a":1}\n\n');
  });
  it('writes named events', () => {
    expect(formatSseEvent({ event: 'ping', data: '{"type":"ping"}' })).toBe('event: ping\ndata: {"type":"ping"}\n\n');
  });
  it('splits multi-line data over data lines', () => {
    expect(formatSseEvent({ data: 'a\nb' })).toBe('data: a\ndata: b\n\n');
  });
  it('writes raw chunks unframed', () => {
    expect(formatOutboundChunks([{ raw: '{"error":{}}' }, { data: '[DONE]' }])).toBe('{"error":{}}data: [DONE]\n\n');
  });
});
