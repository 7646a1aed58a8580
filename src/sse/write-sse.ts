import type { OutboundChunk, SseEvent } from './sse-event.js';

/**
 * The one SSE writer. `data` holds no newlines (our encoders write compact JSON), so one `data:`
 * line per event, which every SDK accepts (@google/genai reads only one per record).
 */
export function formatSseEvent(event: SseEvent): string {
  const data = event.data.includes('\n') ? event.data.split('\n').join('\ndata: ') : event.data;
  return event.event === undefined ? `data: ${data}\n\n` : `event: ${event.event}\ndata: ${data}\n\n`;
}

export function formatOutboundChunk(chunk: OutboundChunk): string {
  return 'raw' in chunk ? chunk.raw : formatSseEvent(chunk);
}

export function formatOutboundChunks(chunks: readonly OutboundChunk[]): string {
  let text = '';
  for (const chunk of chunks) text += formatOutboundChunk(chunk);
  return text;
}

/** An SSE comment: ignored by every SDK, keeps proxies and idle timers from closing the stream. */
export const SSE_KEEP_ALIVE_COMMENT = ': keep-alive\n\n';
