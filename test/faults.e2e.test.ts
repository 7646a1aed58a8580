import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPSTREAM_PROTOCOLS as PROTOCOLS, type UpstreamProtocol as Protocol } from './helpers/fake-protocol-upstream.js';
import { getCodec } from '../src/protocols/codecs.js';
import { parseSseEvents } from '../src/sse/parse-sse.js';
import { createUpstreamProviders, FIXTURE_FILES, UPSTREAM_PROVIDER_ID } from './helpers/fake-protocol-upstream.js';
import { FAULTS, startFaultyUpstream, type Fault, type FaultyReply, type FaultyUpstream } from './helpers/faulty-upstream.js';
import { readFixture, splitSseRecords } from './helpers/fixtures.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

/**
 * One table: every client protocol (its official SDK) × every upstream protocol × stream and
 * non-stream × every way an upstream fails (a clean close after each kind of event, an event cut
 * in half, an event that is not JSON, a reset, an error that quotes the keys). Whatever the path,
 * passthrough included, the SDK raises an error (never a normal finish), a recovery record keeps
 * what came with `upstream_error`, the log line says so, and no key shows anywhere.
 */
const UPSTREAM_KEY = 'sk-upstream-SECRET-0123456789';
const CLIENT_KEY = 'sk-client-SECRET-9876543210';

/** The upstream's answer for a model named `<fault>-<events kept>`. */
function faultyReply(path: string, body: string): FaultyReply {
  const protocol = protocolOfPath(path);
  const parsed = JSON.parse(body);
  const model = protocol === 'gemini' ? /models\/([^:]+):/.exec(path)![1] : parsed.model;
  const [, fault, kept] = /^([a-z-]+)-(\d+)$/.exec(model)!;
  const stream = protocol === 'gemini' ? path.includes(':streamGenerateContent') : parsed.stream === true;
  if (!stream) return jsonFault(protocol, fault as Fault);
  const records = splitSseRecords(readFixture(protocol, FIXTURE_FILES[protocol].text.stream));
  const head = records.slice(0, Number(kept)).join('');
  const next = records[Number(kept)] ?? records.at(-1)!;
  const contentType = 'text/event-stream';
  switch (fault as Fault) {
    case 'close':
      return { contentType, head };
    case 'cut-mid-event':
      return { contentType, head, tail: next.slice(0, Math.floor(next.length / 2)) };
    case 'invalid-json':
      return { contentType, head, tail: protocol === 'anthropic-messages' ? 'event: content_block_delta\ndata: {"type":"content_bl\n\n' : 'data: {"oops\n\n' };
    case 'reset':
      return { contentType, head, reset: true };
    case 'key-error':
      return { contentType, head, tail: streamErrorQuotingKeys(protocol) };
  }
}

function jsonFault(protocol: Protocol, fault: Fault): FaultyReply {
  const whole = readFixture(protocol, FIXTURE_FILES[protocol].text.json);
  const half = whole.slice(0, Math.floor(whole.length / 2));
  switch (fault) {
    case 'close':
    case 'cut-mid-event':
      return { contentType: 'application/json', head: half };
    case 'invalid-json':
      return { contentType: 'application/json', head: '{"id": oops' };
    case 'reset':
      return { contentType: 'application/json', head: half, reset: true };
    case 'key-error':
      return { contentType: 'application/json', status: 500, head: jsonErrorQuotingKeys(protocol) };
  }
}

const QUOTE = `Incorrect API key provided: ${UPSTREAM_KEY} (the client sent ${CLIENT_KEY})`;

function streamErrorQuotingKeys(protocol: Protocol): string {
  switch (protocol) {
    case 'openai-chat':
      return `data: ${JSON.stringify({ error: { message: QUOTE, type: 'invalid_request_error', code: 'invalid_api_key' } })}\n\n`;
    case 'anthropic-messages':
      return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: QUOTE } })}\n\n`;
    case 'openai-responses':
      return `event: error\ndata: ${JSON.stringify({ type: 'error', code: 'invalid_api_key', message: QUOTE, param: null, sequence_number: 99 })}\n\n`;
    case 'gemini':
      // Gemini writes a mid-stream error as bare JSON, outside SSE framing.
      return JSON.stringify({ error: { code: 400, message: QUOTE, status: 'INVALID_ARGUMENT' } });
  }
}

function jsonErrorQuotingKeys(protocol: Protocol): string {
  if (protocol === 'anthropic-messages') return JSON.stringify({ type: 'error', error: { type: 'api_error', message: QUOTE } });
  if (protocol === 'gemini') return JSON.stringify({ error: { code: 500, message: QUOTE, status: 'INTERNAL' } });
  return JSON.stringify({ error: { message: QUOTE, type: 'server_error', code: null } });
}

function protocolOfPath(path: string): Protocol {
  if (path.includes('/chat/completions')) return 'openai-chat';
  if (path.includes('/messages')) return 'anthropic-messages';
  if (path.includes('/responses')) return 'openai-responses';
  return 'gemini';
}

/** Where to close a clean stream: after the first event of each kind before the terminal one, and before any. */
function closePoints(protocol: Protocol): number[] {
  const codec = getCodec(protocol);
  const records = splitSseRecords(readFixture(protocol, FIXTURE_FILES[protocol].text.stream));
  const points = [0];
  const seen = new Set<string>();
  for (const [index, record] of records.entries()) {
    const [event] = parseSseEvents(record);
    if (codec.endsStream(event)) break;
    const kind = kindOf(event.event, event.data);
    if (!seen.has(kind)) {
      seen.add(kind);
      points.push(index + 1);
    }
  }
  return points;
}

function kindOf(name: string | undefined, data: string): string {
  const parsed = JSON.parse(data);
  if (name) return name;
  if (typeof parsed.type === 'string') return parsed.type;
  if (Array.isArray(parsed.choices)) return `chunk:${Object.keys(parsed.choices[0]?.delta ?? {}).sort().join(',')}:${parsed.usage ? 'usage' : ''}`;
  return `record:${Object.keys(parsed.candidates?.[0]?.content?.parts?.[0] ?? {}).join(',')}`;
}

/** A fault in the middle of the stream: after the first content-bearing events. */
function middle(protocol: Protocol): number {
  const points = closePoints(protocol);
  return points[Math.min(points.length - 1, 2)];
}

type Call = (model: string, stream: boolean) => Promise<unknown>;

function clientCall(protocol: Protocol, url: string): Call {
  const question = 'What is the weather?';
  switch (protocol) {
    case 'openai-chat': {
      const client = new OpenAI({ apiKey: CLIENT_KEY, baseURL: `${url}/v1`, maxRetries: 0 });
      return (model, stream) =>
        stream ? client.chat.completions.stream({ model, messages: [{ role: 'user', content: question }] }).finalChatCompletion() : client.chat.completions.create({ model, messages: [{ role: 'user', content: question }] });
    }
    case 'openai-responses': {
      const client = new OpenAI({ apiKey: CLIENT_KEY, baseURL: `${url}/v1`, maxRetries: 0 });
      return (model, stream) => (stream ? client.responses.stream({ model, input: question }).finalResponse() : client.responses.create({ model, input: question }));
    }
    case 'anthropic-messages': {
      const client = new Anthropic({ apiKey: CLIENT_KEY, baseURL: url, maxRetries: 0 });
      const body = { max_tokens: 256, messages: [{ role: 'user' as const, content: question }] };
      return (model, stream) => (stream ? client.messages.stream({ model, ...body }).finalMessage() : client.messages.create({ model, ...body }));
    }
    case 'gemini': {
      const client = new GoogleGenAI({ apiKey: CLIENT_KEY, httpOptions: { baseUrl: url } });
      return async (model, stream) => {
        if (!stream) return client.models.generateContent({ model, contents: question });
        const chunks = [];
        for await (const chunk of await client.models.generateContentStream({ model, contents: question })) chunks.push(chunk);
        return chunks;
      };
    }
  }
}

let upstream: FaultyUpstream;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startFaultyUpstream(faultyReply);
  const providers = createUpstreamProviders(upstream.url);
  for (const provider of Object.values(providers)) provider.apiKey = UPSTREAM_KEY;
  gateway = await startTestGateway({ providers, keys: [{ key: CLIENT_KEY, user: 'alice' }] });
});
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

/** The record a call left, once the gateway has written it (it does so after the response ends). */
async function recordOf(model: string, protocol: Protocol) {
  const find = () => gateway.interrupted.find((record) => record.model === model && record.protocol === protocol);
  for (let waited = 0; waited < 3000 && !find(); waited += 10) await sleep(10);
  return find();
}

function expectNoKey(text: string): void {
  expect(text).not.toContain(UPSTREAM_KEY);
  expect(text).not.toContain(CLIENT_KEY);
}

const cases = PROTOCOLS.flatMap((client) =>
  PROTOCOLS.flatMap((upstreamProtocol) => [
    ...closePoints(upstreamProtocol).map((kept) => ({ client, upstream: upstreamProtocol, fault: 'close' as Fault, kept, stream: true })),
    ...FAULTS.filter((fault) => fault !== 'close').map((fault) => ({ client, upstream: upstreamProtocol, fault, kept: middle(upstreamProtocol), stream: true })),
    ...FAULTS.filter((fault) => fault !== 'cut-mid-event').map((fault) => ({ client, upstream: upstreamProtocol, fault, kept: 0, stream: false })),
  ]),
);

describe('an upstream that fails is never a finish', () => {
  it.each(cases)('$client client ← $upstream upstream, stream $stream: $fault after $kept events', async ({ client, upstream: upstreamProtocol, fault, kept, stream }) => {
    const logsBefore = gateway.logs.length;
    const model = `${UPSTREAM_PROVIDER_ID[upstreamProtocol]}/${fault}-${kept}`;
    const failure = await clientCall(client, gateway.url)(model, stream).then(
      (answer) => ({ answered: answer }),
      (error: unknown) => error,
    );
    // What the SDK saw: an error, raised by the SDK itself (the Responses stream helper rejects
    // with the stream's `error` event as it came).
    expect(failure).not.toHaveProperty('answered');
    if (client === 'openai-responses' && stream && !(failure instanceof Error)) expect(failure).toMatchObject({ type: 'error', message: expect.any(String) });
    else expect(failure).toBeInstanceOf(Error);
    expectNoKey(`${String(failure)} ${JSON.stringify(failure)}`);

    const answeredWithError = !stream && fault === 'key-error';
    if (answeredWithError) {
      // The upstream answered with an error status: passed on, nothing was generated to keep.
      expect((failure as { status?: number }).status).toBeGreaterThanOrEqual(500);
    } else {
      const record = (await recordOf(model, client))!;
      expect(record).toMatchObject({ reason: 'upstream_error', model, protocol: client, user: 'alice' });
      expect(record.errorMessage).toBeTruthy();
      if (fault === 'close' || fault === 'cut-mid-event') expect(record.errorMessage).toMatch(/ended the stream early|not complete JSON|not valid JSON/);
      expect(() => JSON.parse(record.responseBodyText)).not.toThrow();
      expectNoKey(JSON.stringify(record));
    }
    // The log line is written with the record, for this request.
    const lines = gateway.logs.slice(logsBefore).join('\n');
    if (!answeredWithError) expect(lines).toContain('interrupted=upstream_error');
    expectNoKey(lines);
  });
});
