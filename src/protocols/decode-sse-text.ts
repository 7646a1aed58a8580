import type { StreamPart } from '../core/stream-part.js';
import { createSseParser } from '../sse/parse-sse.js';
import type { StreamDecoder } from './protocol-codec.js';

/** A whole recorded SSE body through a codec's stream decoder: every part, the end included. */
export function decodeSseText(text: string | Uint8Array, decoder: StreamDecoder): StreamPart[] {
  const parts: StreamPart[] = [];
  const parser = createSseParser((event) => {
    for (const part of decoder.decode(event)) parts.push(part);
  });
  parser.feed(text);
  parser.end();
  for (const part of decoder.end()) parts.push(part);
  return parts;
}
