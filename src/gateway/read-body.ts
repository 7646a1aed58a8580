import type { Readable } from 'node:stream';

/** An upstream body as text (non-stream responses and error bodies). */
export async function readBodyText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
