import { describe, expect, it } from 'vitest';
import { createSseParser } from './parse-sse.js';
import type { SseEvent } from './sse-event.js';

function parseAll(chunks: Array<string | Uint8Array>): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  return events;
}

describe('createSseParser', () => {
  it('parses named and data-only events split across chunks', () => {
    expect(parseAll(['event: a\nda', 'ta: {"x":1}\n\n', 'data: [DONE]\n\n'])).toEqual([
      { event: 'a', data: '{"x":1}', id: undefined },
      { event: undefined, data: '[DONE]', id: undefined },
    ]);
  });
  it('handles CRLF framing and multi-byte characters split between chunks', () => {
    const bytes = new TextEncoder().encode('data: {"t":"é"}\r\n\r\n');
    expect(parseAll([bytes.slice(0, 12), bytes.slice(12)])).toEqual([{ event: undefined, data: '{"t":"é"}', id: undefined }]);
  });
  it('skips comments and dispatches a last event without its blank line', () => {
    expect(parseAll([': keep-alive\n\ndata: 1\n'])).toEqual([{ event: undefined, data: '1', id: undefined }]);
  });
  it('delivers lines that are not SSE as unframed', () => {
    expect(parseAll(['{"error":{"code":500}}\n\n'])).toEqual([{ data: '{"error":{"code":500}}', unframed: true }]);
  });
});
