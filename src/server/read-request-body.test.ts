import { Readable } from 'node:stream';
import type { H3Event } from 'h3';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/gateway-error.js';
import { MAX_BODY_DEPTH, readJsonBody } from './read-request-body.js';

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

  it('refuses a body nested past the limit with a 400 naming the field, and takes one at the limit', async () => {
    // Levels: the body, `tools`, the tool, then nested schemas; built as text, which JSON.stringify could not do that deep.
    const nested = (schemas: number) => `{"tools":[{"input_schema":${'{"type":"object","properties":{"a b":'.repeat(schemas)}{"type":"string"}${'}}'.repeat(schemas)}}]}`;
    // Each schema is two levels (the schema and its `properties`), the innermost one one level.
    const atLimit = (MAX_BODY_DEPTH - 4) / 2;
    const body = nested(atLimit);
    expect((await readJsonBody(eventWith(body, [body], true), 1 << 20)).json).toHaveProperty('tools');

    const deeper = nested(atLimit + 1);
    const error = await readJsonBody(eventWith(deeper, [deeper], true), 1 << 20).catch((caught: unknown) => caught);
    expect(GatewayError.is(error) && { code: error.code, status: error.status }).toEqual({ code: 'invalid_request', status: 400 });
    const param = (error as GatewayError).param!;
    expect(param.startsWith('tools[0].input_schema.properties["a b"].properties["a b"]')).toBe(true);
    expect(param.split('["a b"]').length - 1).toBe(atLimit);
    expect((error as GatewayError).message).toContain(`deeper than ${MAX_BODY_DEPTH} levels`);
  });

  it('checks a body 100,000 levels deep without running out of stack', async () => {
    const body = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const error = await readJsonBody(eventWith(body, [body], true), 1 << 22).catch((caught: unknown) => caught);
    expect(GatewayError.is(error) && error.param).toBe(`a${'[0]'.repeat(MAX_BODY_DEPTH - 1)}`);
  });
});
