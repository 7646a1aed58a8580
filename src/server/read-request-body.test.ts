import { Readable } from 'node:stream';
import type { H3Event } from 'h3';
import { describe, expect, it } from 'vitest';
import { readJsonBody } from './read-request-body.js';

/** An event whose Node request gets `pieces` pushed, each a microtask after the last, and never ends unless told. */
function eventWith(body: string, pieces: string[], end: boolean, announce = true, request = new Readable({ read() {} })): H3Event {
  void (async () => {
    for (const piece of pieces) {
      await Promise.resolve();
      request.push(Buffer.from(piece));
    }
    if (end) request.push(null);
  })();
  const headers = new Headers({ 'content-type': 'application/json', ...(announce && { 'content-length': String(Buffer.byteLength(body)) }) });
  return { req: { headers }, runtime: { node: { req: request } } } as unknown as H3Event;
}

describe('readJsonBody', () => {
  it('takes a body that arrived whole with its headers at once, without waiting for its end', async () => {
    const body = '{"model":"m","messages":[]}';
    // No end ever comes: only a body taken from the buffer can be read.
    const read = await readJsonBody(eventWith(body, [body], false), 1024);
    expect(read.json).toEqual({ model: 'm', messages: [] });
    expect(read.bytes.toString()).toBe(body);
  });

  it('waits for the rest of a body that is not whole yet, and for the end of an unannounced one', async () => {
    const body = '{"model":"m","messages":["é"]}';
    for (const announce of [true, false]) {
      const read = await readJsonBody(eventWith(body, [body.slice(0, 5), body.slice(5)], true, announce), 1024);
      expect(read.json).toEqual({ model: 'm', messages: ['é'] });
    }
  });

  it('leaves no listener on the request once a body in pieces is read', async () => {
    // The request lives as long as its stream: a listener left on it would hold every piece again.
    const body = '{"model":"m","messages":[]}';
    const request = new Readable({ read() {} });
    await readJsonBody(eventWith(body, [body.slice(0, 5), body.slice(5)], true, true, request), 1024);
    expect(['data', 'end', 'error'].map((name) => request.listenerCount(name))).toEqual([0, 0, 0]);
  });
});
