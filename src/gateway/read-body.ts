import type { Readable } from 'node:stream';
import { consumeStream } from './consume-stream.js';

/** A whole upstream body (non-stream responses and error bodies), as the bytes that arrived. */
export async function readBody(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await consumeStream(body, (chunk) => void chunks.push(chunk));
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

export async function readBodyText(body: Readable): Promise<string> {
  return (await readBody(body)).toString('utf8');
}
