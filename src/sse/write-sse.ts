import type { SseEvent } from './sse-event.js';

/**
 * The SSE writer. Encoders write compact JSON, which holds no newline, so each record is one
 * `data:` line (which every SDK accepts; @google/genai reads only one per record) and is built by
 * plain concatenation, with no event object in between.
 */
export function sseData(json: string): string {
  return `data: ${json}\n\n`;
}

/** A named record (`event:` then `data:`), as Anthropic and OpenAI Responses write them. */
export function sseEvent(name: string, json: string): string {
  return `event: ${name}\ndata: ${json}\n\n`;
}

/** An event as parsed from an upstream, whose data may span several lines. */
export function formatSseEvent(event: SseEvent): string {
  const data = event.data.includes('\n') ? event.data.split('\n').join('\ndata: ') : event.data;
  return event.event === undefined ? `data: ${data}\n\n` : `event: ${event.event}\ndata: ${data}\n\n`;
}

/** An SSE comment: ignored by every SDK, keeps proxies and idle timers from closing the stream. */
export const SSE_KEEP_ALIVE_COMMENT = ': keep-alive\n\n';
