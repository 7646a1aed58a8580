import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/gateway-error.js';
import { getCodec } from '../protocols/codecs.js';
import { UpstreamCall } from '../providers/upstream-call.js';
import { parseSseEvents } from '../sse/parse-sse.js';
import { FIXTURES_DIRECTORY, readFixture, splitSseRecords } from '../../test/helpers/fixtures.js';
import { createPassthroughSource, createPassthroughTap } from './passthrough-source.js';

const chunk = (index: number, content: string) =>
  `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"${content}"},"finish_reason":null}],"usage":null}\n\n`;
const finish = 'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}\n\n';
const usage = 'data: {"id":"c","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":7,"completion_tokens":2,"total_tokens":9}}\n\n';
const STREAM = chunk(0, 'Hel') + chunk(1, 'lo') + finish + usage + 'data: [DONE]\n\n';

/** An upstream body that arrived in these reads, through the real undici handler. */
function bodyOf(pieces: string[]): UpstreamCall {
  const call = new UpstreamCall(undefined);
  const controller = { pause() {}, resume() {}, abort() {} } as unknown as Dispatcher.DispatchController;
  call.onRequestStart(controller);
  call.onResponseStart(controller, 200, {});
  for (const piece of pieces) call.onResponseData(controller, Buffer.from(piece));
  call.onResponseEnd();
  return call;
}

async function pass(pieces: string[], hide: boolean) {
  const prepared = getCodec('openai-chat').preparePassthrough({ model: 'm', stream: true, messages: [] }, { model: 'm', stream: true, search: '' });
  const source = createPassthroughSource({
    body: bodyOf(pieces),
    createDecoder: () => getCodec('openai-chat').createStreamDecoder(),
    endsStream: getCodec('openai-chat').endsStream,
    secrets: () => [],
    hidden: hide ? prepared.hideEvent : undefined,
    failure: (error) => new GatewayError('upstream_error', String(error)),
  });
  const written: Array<Buffer | string> = [];
  await source.run((bytes) => void written.push(bytes));
  return { text: written.map(String).join(''), writes: written, tap: source.tap };
}

/** Every way of cutting the stream into two network reads. */
const splits = Array.from({ length: STREAM.length - 1 }, (_, at) => [STREAM.slice(0, at + 1), STREAM.slice(at + 1)]);

describe('createPassthroughSource', () => {
  it('hands on whole events only, wherever the reads are cut, and the same bytes in all', async () => {
    for (const pieces of splits) {
      const { text, writes } = await pass(pieces, false);
      expect(text).toBe(STREAM);
      for (const write of writes) expect(String(write).endsWith('\n\n')).toBe(true);
    }
  });

  it('fails a stream that ends before its terminal event, and never hands on half an event', async () => {
    const cuts: Array<[string, string]> = [
      [chunk(0, 'Hel') + chunk(1, 'lo'), 'Hello'],
      [chunk(0, 'Hel') + chunk(1, 'lo').slice(0, 30), 'Hel'],
      [STREAM.slice(0, STREAM.indexOf(finish) + 20), 'Hello'],
    ];
    for (const [cut, kept] of cuts) {
      const written: string[] = [];
      const source = createPassthroughSource({
        body: bodyOf([cut]),
        createDecoder: () => getCodec('openai-chat').createStreamDecoder(),
        endsStream: getCodec('openai-chat').endsStream,
        secrets: () => [],
        failure: (error) => new GatewayError('upstream_error', String(error)),
      });
      const failure = await source.run((bytes) => void written.push(String(bytes))).then(() => undefined, (error: unknown) => error);
      expect(failure).toMatchObject({ code: 'upstream_error', status: 502 });
      expect(written.join('')).toBe(cut.slice(0, cut.lastIndexOf('\n\n') + 2));
      // The tap keeps what came, for the record.
      expect(source.tap.result().choices[0].content).toEqual([{ type: 'text', text: kept }]);
    }
  });

  it('takes a finish_reason without [DONE] as complete, and a last event without its blank line', async () => {
    expect((await pass([chunk(0, 'Hi') + finish + usage], false)).text).toBe(chunk(0, 'Hi') + finish + usage);
    expect((await pass([STREAM.slice(0, -1)], false)).text).toBe(STREAM);
  });

  it('forwards the upstream bytes untouched, and decodes them only when asked', async () => {
    const { text, writes, tap } = await pass([STREAM], false);
    expect(text).toBe(STREAM);
    expect(Buffer.isBuffer(writes[0])).toBe(true);
    const response = tap.result();
    expect(response.choices[0].content).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(response.usage.input.total).toBe(7);
    expect(tap.error()).toBeUndefined();
  });

  it('takes out the usage chunk the client did not ask for, wherever the reads are cut', async () => {
    const expected = STREAM.replace(usage, '');
    for (const pieces of splits) {
      const { text, tap } = await pass(pieces, true);
      expect(parseSseEvents(text)).toEqual(parseSseEvents(expected));
      // The tap still saw it: usage is known.
      expect(tap.result().usage.output.total).toBe(2);
    }
  });

  it('makes no decoder for a tap nobody reads', () => {
    let made = 0;
    const tap = createPassthroughTap(() => (made += 1, getCodec('openai-chat').createStreamDecoder()));
    for (const piece of [chunk(0, 'Hel'), chunk(1, 'lo'), finish, usage]) tap.push(Buffer.from(piece));
    tap.end();
    expect(tap.error()).toBeUndefined();
    expect(made).toBe(0);
    expect(tap.result().choices[0].content).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(made).toBe(1);
  });

  it("decodes no Responses stream for its `\"error\":null`, and finds the error of one that failed", () => {
    const responses = readFixture('openai-responses', 'text-stream.sse');
    expect(responses).toContain('"error":null');
    const tapOf = (text: string) => {
      const made = { count: 0 };
      const tap = createPassthroughTap(() => (made.count += 1, getCodec('openai-responses').createStreamDecoder()));
      for (const record of splitSseRecords(text)) tap.push(Buffer.from(record));
      tap.end();
      return { tap, made };
    };
    const whole = tapOf(responses);
    expect(whole.tap.error()).toBeUndefined();
    expect(whole.made.count).toBe(0);
    // The same stream ending in an error event instead of its completion, or failing with the error in its response.
    const completed = /event: response\.completed\ndata: .*/;
    const errorEvent = responses.replace(completed, 'event: error\ndata: {"type":"error","code":"server_error","message":"overloaded","param":null,"sequence_number":99}');
    const failed = responses.replace(completed, (record) =>
      record.replace(/response\.completed/g, 'response.failed').replace('"status":"completed"', '"status":"failed"').replace('"error":null', '"error":{"code":"server_error","message":"overloaded"}'),
    );
    for (const text of [errorEvent, failed]) {
      expect(text).not.toBe(responses);
      const cut = tapOf(text);
      expect(cut.tap.error()?.message).toContain('overloaded');
      expect(cut.made.count).toBe(1);
    }
  });

  it('reports an upstream error event through the tap', async () => {
    const { tap } = await pass([chunk(0, 'a'), 'data: {"error":{"message":"overloaded","type":"server_error"}}\n\n'], false);
    expect(tap.error()?.message).toBe('overloaded');
  });

  it('decodes a long stream as it goes past the byte limit, to the same response', () => {
    const inner = getCodec('openai-chat').createStreamDecoder();
    let decodedBeforeAsked = 0;
    const tap = createPassthroughTap(() => ({ decode: (event) => (decodedBeforeAsked += 1, inner.decode(event)), end: () => inner.end() }), 300);
    const deltas = Array.from({ length: 50 }, (_, index) => chunk(index, `w${index} `));
    const whole = deltas.join('') + finish + usage + 'data: [DONE]\n\n';
    // Reads cut anywhere, also inside events.
    for (let at = 0; at < whole.length; at += 37) tap.push(Buffer.from(whole.slice(at, at + 37)));
    tap.end();
    // Held bytes never reach much past the limit: most events were decoded before anyone asked.
    expect(decodedBeforeAsked).toBeGreaterThan(40);
    const response = tap.result();
    expect(response.choices[0].content).toEqual([{ type: 'text', text: deltas.map((_, index) => `w${index} `).join('') }]);
    expect(response.usage.output.total).toBe(2);
    expect(response.choices[0].finishReason.unified).toBe('stop');
  });
});

describe('the usage of a passthrough stream', () => {
  const protocols = ['openai-chat', 'anthropic-messages', 'openai-responses', 'gemini'] as const;
  const cases = protocols.flatMap((protocol) =>
    readdirSync(join(FIXTURES_DIRECTORY, protocol))
      .filter((name) => name.endsWith('-stream.sse'))
      .map((name) => [protocol, name] as const),
  );

  it.each(cases)('%s %s: read from its first and last events, the same as decoding it whole', (protocol, name) => {
    const codec = getCodec(protocol);
    const events = splitSseRecords(readFixture(protocol, name));
    // One read per event: the usage must come from the first and last two alone.
    const cheap = createPassthroughTap(() => codec.createStreamDecoder());
    const whole = createPassthroughTap(() => codec.createStreamDecoder());
    for (const event of events) {
      cheap.push(Buffer.from(event));
      whole.push(Buffer.from(event));
    }
    cheap.end();
    whole.end();
    const expected = whole.result().usage;
    const usage = cheap.usage();
    expect({ input: usage.input, output: usage.output }).toEqual({ input: expected.input, output: expected.output });
  });
});
