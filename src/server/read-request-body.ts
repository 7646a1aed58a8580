import type { IncomingMessage } from 'node:http';
import type { H3Event } from 'h3';
import { GatewayError, invalidRequest } from '../core/gateway-error.js';
import { isJsonObject, type JsonObject } from '../protocols/read-fields.js';

export interface RequestBody {
  /** The body as it arrived: sent on as it is by a passthrough, kept for a recovery record. */
  bytes: Buffer;
  json: JsonObject;
}

/**
 * Reads and parses a JSON request body: 415 for a content type that is not JSON, 413 over the limit
 * (checked against content-length before reading, and while reading), 400 for malformed JSON or a
 * body that is not an object.
 */
export async function readJsonBody(event: H3Event, limitBytes: number): Promise<RequestBody> {
  const contentType = event.req.headers.get('content-type');
  if (contentType && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType.trim())) {
    throw new GatewayError('unsupported_media_type', `Unsupported content type '${contentType}': send the body as application/json.`);
  }
  const declared = Number(event.req.headers.get('content-length') ?? NaN);
  if (declared > limitBytes) throw tooLarge(limitBytes);
  const bytes = await readBytes(event, limitBytes, declared);
  const text = bytes.toString('utf8');
  if (text.trim() === '') throw invalidRequest(undefined, 'The request body is empty; send a JSON object.');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw invalidRequest(undefined, `The request body is not valid JSON (${(error as Error).message}).`);
  }
  if (!isJsonObject(json)) throw invalidRequest(undefined, 'The request body must be a JSON object.');
  return { bytes, json };
}

function tooLarge(limitBytes: number): GatewayError {
  return new GatewayError('request_too_large', `The request body is larger than the limit of ${Math.round(limitBytes / 2 ** 20)} MB (server.bodyLimitMb).`);
}

async function readBytes(event: H3Event, limitBytes: number, declared: number): Promise<Buffer> {
  const nodeRequest = (event.runtime as { node?: { req?: IncomingMessage } } | undefined)?.node?.req;
  if (!nodeRequest) {
    const bytes = Buffer.from(await event.req.arrayBuffer());
    if (bytes.length > limitBytes) throw tooLarge(limitBytes);
    return bytes;
  }
  // The handler runs as soon as the headers are parsed, in the middle of the network read that
  // carries them. A body that came with them (the usual case) is in the request's buffer, whole,
  // once that read is done, one turn of the microtask queue later: it is then taken at once,
  // instead of through data and end events a few turns of the event loop later.
  if (nodeRequest.readableLength < declared) await Promise.resolve();
  if (declared > 0 && nodeRequest.readableLength === declared) return nodeRequest.read(declared) as Buffer;
  // Events rather than `for await`: leaving an async iterator early destroys the request, and a
  // destroyed request loses its socket before the 413 is written. The listeners go once the body
  // is read: the request lives as long as its stream, and a listener left on it would hold every
  // piece of the body a second time.
  const chunks: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve, reject) => {
    const stopListening = () => {
      nodeRequest.off('data', onData);
      nodeRequest.off('end', onEnd);
      nodeRequest.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        stopListening();
        // Keep reading into nothing, so the 413 can be written and the socket stays sound.
        nodeRequest.resume();
        reject(tooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stopListening();
      resolve();
    };
    const onError = (error: Error) => {
      stopListening();
      reject(error);
    };
    nodeRequest.on('data', onData);
    nodeRequest.once('end', onEnd);
    nodeRequest.once('error', onError);
  });
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}
