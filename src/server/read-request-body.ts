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
  if (nestsDeeperThan(json, MAX_BODY_DEPTH)) {
    const path = findFieldPastDepth(json, MAX_BODY_DEPTH);
    throw invalidRequest(path, `The request body nests deeper than ${MAX_BODY_DEPTH} levels, at ${shortenPath(path)}; no request needs that many.`);
  }
  return { bytes, json };
}

/**
 * The deepest nesting of objects and arrays a body may have. Real requests stay far below it:
 * the JSON Schemas of tools and response formats, and tool arguments, nest tens of levels at
 * most. Past a few thousand levels, code that walks a value recursively runs out of stack
 * (V8's own JSON.stringify fails between 3,000 and 5,000 levels on Node 20, fewer when called
 * deep in a stack), and the client would get a 500 for its own body instead of a 400 naming the field.
 */
export const MAX_BODY_DEPTH = 256;

/** Reused by every check (it runs synchronously) and emptied after, so it holds no body. */
const pending: object[] = [];
const pendingDepths: number[] = [];

/**
 * Whether a parsed body nests deeper than `limit` (the body itself is level 1). Iterative, with no
 * allocation per value: every body goes through it (on Node 20, ~45 µs for a 400 kB agent request,
 * about 5 % of its JSON.parse, and 0.3 µs for a small one).
 */
function nestsDeeperThan(root: JsonObject, limit: number): boolean {
  let deeper = false;
  pending.push(root);
  pendingDepths.push(1);
  while (pending.length > 0) {
    const value = pending.pop() as Record<string, unknown> | unknown[];
    const depth = pendingDepths.pop()! + 1;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        const item = value[index];
        if (typeof item !== 'object' || item === null) continue;
        if (depth > limit) deeper = true;
        pending.push(item);
        pendingDepths.push(depth);
      }
    } else {
      for (const key in value) {
        const item = value[key];
        if (typeof item !== 'object' || item === null) continue;
        if (depth > limit) deeper = true;
        pending.push(item);
        pendingDepths.push(depth);
      }
    }
    if (deeper) break;
  }
  pending.length = 0;
  pendingDepths.length = 0;
  return deeper;
}

/** The path of the first value (in document order) at level `limit + 1`, as a client names fields. */
function findFieldPastDepth(root: JsonObject, limit: number): string {
  const frames: Array<{ value: Record<string, unknown>; keys: string[]; next: number }> = [{ value: root, keys: Object.keys(root), next: 0 }];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    if (frame.next === frame.keys.length) {
      frames.pop();
      continue;
    }
    const item = frame.value[frame.keys[frame.next++]!];
    if (typeof item !== 'object' || item === null) continue;
    if (frames.length === limit) return frames.map((each, index) => formatSegment(each.value, each.keys[each.next - 1]!, index === 0)).join('');
    frames.push({ value: item as Record<string, unknown>, keys: Object.keys(item), next: 0 });
  }
  return '';
}

function formatSegment(container: object, key: string, first: boolean): string {
  if (Array.isArray(container)) return `[${key}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return first ? key : `.${key}`;
  return `[${JSON.stringify(key)}]`;
}

/** A path of hundreds of segments, cut in the middle for the message (`param` has it whole). */
function shortenPath(path: string): string {
  return path.length <= 120 ? path : `${path.slice(0, 60)}…${path.slice(-50)}`;
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
