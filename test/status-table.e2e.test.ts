import Anthropic, { APIError as AnthropicAPIError } from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI, { APIError as OpenAIAPIError } from 'openai';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from './helpers/fake-upstream.js';
import { createUpstreamProviders, identifyRequest, UPSTREAM_PROTOCOLS, UPSTREAM_PROVIDER_ID, type UpstreamProtocol } from './helpers/fake-protocol-upstream.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

/**
 * The status table of docs/errors.md, end to end: for every client protocol and every condition,
 * the status on the wire, the envelope's type, the `retry-after` a rate limit passes on, and the
 * error class the protocol's official SDK raises.
 */
type Client = UpstreamProtocol;
const CLIENTS: Client[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'];

/** What a client of each family sees: status, envelope type (Gemini: google.rpc status), SDK error class. */
interface Expected {
  openai: [number, string, new (...args: any[]) => OpenAIAPIError];
  anthropic: [number, string, new (...args: any[]) => AnthropicAPIError];
  gemini: [number, string];
}

const OVERLOADED: Expected = {
  openai: [503, 'server_error', OpenAI.InternalServerError],
  anthropic: [529, 'overloaded_error', Anthropic.OverloadedError],
  gemini: [503, 'UNAVAILABLE'],
};
const RATE_LIMITED: Expected = {
  openai: [429, 'rate_limit_error', OpenAI.RateLimitError],
  anthropic: [429, 'rate_limit_error', Anthropic.RateLimitError],
  gemini: [429, 'RESOURCE_EXHAUSTED'],
};
const UNREACHABLE: Expected = {
  openai: [502, 'server_error', OpenAI.InternalServerError],
  anthropic: [502, 'api_error', Anthropic.InternalServerError],
  gemini: [502, 'INTERNAL'],
};
const TIMED_OUT: Expected = {
  openai: [504, 'server_error', OpenAI.InternalServerError],
  anthropic: [504, 'timeout_error', Anthropic.GatewayTimeoutError],
  gemini: [504, 'DEADLINE_EXCEEDED'],
};
const TOO_LARGE: Expected = {
  openai: [413, 'invalid_request_error', OpenAI.APIError],
  anthropic: [413, 'request_too_large', Anthropic.ContentTooLargeError],
  gemini: [413, 'INVALID_ARGUMENT'],
};

/** `mock-fail` answers with the status its message names. */
const MOCK_FAIL: Array<[number, Expected]> = [
  [400, { openai: [400, 'invalid_request_error', OpenAI.BadRequestError], anthropic: [400, 'invalid_request_error', Anthropic.BadRequestError], gemini: [400, 'INVALID_ARGUMENT'] }],
  [401, { openai: [401, 'invalid_request_error', OpenAI.AuthenticationError], anthropic: [401, 'authentication_error', Anthropic.AuthenticationError], gemini: [401, 'UNAUTHENTICATED'] }],
  [402, { openai: [429, 'insufficient_quota', OpenAI.RateLimitError], anthropic: [402, 'billing_error', Anthropic.PaymentRequiredError], gemini: [429, 'RESOURCE_EXHAUSTED'] }],
  [403, { openai: [403, 'permission_error', OpenAI.PermissionDeniedError], anthropic: [403, 'permission_error', Anthropic.PermissionDeniedError], gemini: [403, 'PERMISSION_DENIED'] }],
  [404, { openai: [404, 'invalid_request_error', OpenAI.NotFoundError], anthropic: [404, 'not_found_error', Anthropic.NotFoundError], gemini: [404, 'NOT_FOUND'] }],
  [413, TOO_LARGE],
  [415, { openai: [415, 'invalid_request_error', OpenAI.APIError], anthropic: [415, 'invalid_request_error', Anthropic.APIError], gemini: [415, 'INVALID_ARGUMENT'] }],
  [429, RATE_LIMITED],
  [500, { openai: [500, 'server_error', OpenAI.InternalServerError], anthropic: [500, 'api_error', Anthropic.InternalServerError], gemini: [500, 'INTERNAL'] }],
  [503, OVERLOADED],
  [529, OVERLOADED],
  [504, TIMED_OUT],
];

function familyOf(client: Client): keyof Expected {
  return client === 'anthropic-messages' ? 'anthropic' : client === 'gemini' ? 'gemini' : 'openai';
}

/** The error bodies each vendor sends, with the headers of a rate limit. */
function vendorError(protocol: UpstreamProtocol, condition: 'overloaded' | 'rate-limited'): FakeReply {
  const headers = condition === 'rate-limited' ? { 'retry-after': '7', 'retry-after-ms': '7000' } : undefined;
  if (protocol === 'anthropic-messages') {
    const [status, type] = condition === 'overloaded' ? [529, 'overloaded_error'] : [429, 'rate_limit_error'];
    return { status, headers, json: JSON.stringify({ type: 'error', error: { type, message: `Upstream says ${type}.` }, request_id: 'req_1' }) };
  }
  if (protocol === 'gemini') {
    const [status, rpc] = condition === 'overloaded' ? [503, 'UNAVAILABLE'] : [429, 'RESOURCE_EXHAUSTED'];
    return { status, headers, json: JSON.stringify({ error: { code: status, message: `Upstream says ${rpc}.`, status: rpc } }) };
  }
  const [status, type, code] = condition === 'overloaded' ? [503, 'server_error', null] : [429, 'rate_limit_error', 'rate_limit_exceeded'];
  return { status, headers, json: JSON.stringify({ error: { message: `Upstream says ${type}.`, type, param: null, code } }) };
}

function reply(request: RecordedRequest): FakeReply {
  const { protocol, model } = identifyRequest(request);
  return vendorError(protocol, model === 'overloaded' ? 'overloaded' : 'rate-limited');
}

/** One raw request in the client's protocol, as its SDK would send it (non-stream). */
async function post(gateway: TestGateway, client: Client, model: string, text: string, init: { contentType?: string } = {}) {
  const body =
    client === 'openai-chat'
      ? { model, messages: [{ role: 'user', content: text }] }
      : client === 'openai-responses'
        ? { model, input: text }
        : client === 'anthropic-messages'
          ? { model, max_tokens: 16, messages: [{ role: 'user', content: text }] }
          : { contents: [{ role: 'user', parts: [{ text }] }] };
  const path = { 'openai-chat': '/v1/chat/completions', 'openai-responses': '/v1/responses', 'anthropic-messages': '/v1/messages', gemini: `/v1beta/models/${model}:generateContent` }[client];
  const response = await fetch(gateway.url + path, {
    method: 'POST',
    headers: { 'content-type': init.contentType ?? 'application/json', authorization: 'Bearer sk-test', 'anthropic-version': '2023-06-01', 'x-goog-api-key': 'test-key' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as any;
  // The envelope's type field: error.type (OpenAI, Anthropic), error.status (Gemini, whose error.code repeats the HTTP status).
  const type = client === 'gemini' ? json.error.status : json.error.type;
  if (client === 'anthropic-messages') expect(json.type).toBe('error');
  if (client === 'gemini') expect(json.error.code).toBe(response.status);
  return { status: response.status, type, message: json.error.message as string, retryAfter: response.headers.get('retry-after'), retryAfterMs: response.headers.get('retry-after-ms') };
}

/** The error the client's SDK raises for one request (no retries). */
async function sdkError(gateway: TestGateway, client: Client, model: string, text: string): Promise<unknown> {
  const call = async () => {
    if (client === 'openai-chat') return new OpenAI({ apiKey: 'sk-test', baseURL: `${gateway.url}/v1`, maxRetries: 0 }).chat.completions.create({ model, messages: [{ role: 'user', content: text }] });
    if (client === 'openai-responses') return new OpenAI({ apiKey: 'sk-test', baseURL: `${gateway.url}/v1`, maxRetries: 0 }).responses.create({ model, input: text });
    if (client === 'anthropic-messages') return new Anthropic({ apiKey: 'sk-test', baseURL: gateway.url, maxRetries: 0 }).messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: text }] });
    return new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: gateway.url, retryOptions: { attempts: 1 } } }).models.generateContent({ model, contents: text });
  };
  return call().then(
    () => {
      throw new Error(`${client} ${model}: the SDK returned a response`);
    },
    (error: unknown) => error,
  );
}

/** Asserts the wire and the SDK for one client and condition. */
async function expectCondition(gateway: TestGateway, client: Client, model: string, text: string, expected: Expected) {
  const family = familyOf(client);
  const [status, type] = expected[family];
  const wire = await post(gateway, client, model, text);
  expect({ client, model, status: wire.status, type: wire.type }).toEqual({ client, model, status, type });
  const error = await sdkError(gateway, client, model, text);
  if (family === 'gemini') {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(status);
  } else {
    const errorClass = expected[family][2];
    expect(error, `${client} ${model}`).toBeInstanceOf(errorClass);
    // The exact class, not a parent of it: a 529 that came back as another 5xx would still be an InternalServerError.
    expect((error as object).constructor).toBe(errorClass);
    expect({ status: (error as OpenAIAPIError).status, type: (error as OpenAIAPIError).type }).toEqual({ status, type });
  }
  return wire;
}

let upstream: FakeUpstream;
let silent: Server;
const silentSockets = new Set<Socket>();
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startFakeUpstream(reply);
  // Takes connections and never answers them.
  silent = createServer((socket) => void silentSockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  // A port that was just free: nothing listens there.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  gateway = await startTestGateway({
    server: { bodyLimitMb: 1 },
    providers: Object.assign(createUpstreamProviders(upstream.url), {
      down: { type: 'openai-chat', baseURL: `http://127.0.0.1:${closedPort}/v1`, apiKey: 'k', discoverModels: false },
      silent: { type: 'anthropic-messages', baseURL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, apiKey: 'k', discoverModels: false, timeoutMs: 200 },
    }),
  });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
  for (const socket of silentSockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

describe.each(CLIENTS)('a %s client', (client) => {
  it('gets a 502 when the upstream cannot be reached', async () => {
    const wire = await expectCondition(gateway, client, 'down/gpt-x', 'hi', UNREACHABLE);
    expect(wire.message).toMatch(/Could not reach the upstream at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  it('gets a 504 when the upstream does not answer in time', async () => {
    await expectCondition(gateway, client, 'silent/claude-x', 'hi', TIMED_OUT);
  });

  it.each(UPSTREAM_PROTOCOLS)('gets the overload of a %s upstream as its protocol says it', async (upstreamProtocol) => {
    await expectCondition(gateway, client, `${UPSTREAM_PROVIDER_ID[upstreamProtocol]}/overloaded`, 'hi', OVERLOADED);
  });

  it.each(UPSTREAM_PROTOCOLS)("gets the rate limit of a %s upstream with the upstream's retry-after", async (upstreamProtocol) => {
    const wire = await expectCondition(gateway, client, `${UPSTREAM_PROVIDER_ID[upstreamProtocol]}/rate-limited`, 'hi', RATE_LIMITED);
    expect({ retryAfter: wire.retryAfter, retryAfterMs: wire.retryAfterMs }).toEqual({ retryAfter: '7', retryAfterMs: '7000' });
  });

  it.each(MOCK_FAIL)('gets mock-fail %s as the table says', async (asked, expected) => {
    const wire = await expectCondition(gateway, client, 'mock-fail', String(asked), expected);
    // The message names the condition, never a status the client did not get.
    expect(wire.message).toMatch(/^mock-fail failed as asked \(\w+\)\.$/);
  });

  it("gets a 413 for a body over the gateway's limit, and a 415 for one that is not JSON", async () => {
    await expectCondition(gateway, client, 'mock-echo', 'x'.repeat(1_200_000), TOO_LARGE);
    const wire = await post(gateway, client, 'mock-echo', 'hi', { contentType: 'text/plain' });
    expect({ status: wire.status, type: wire.type }).toEqual({ status: 415, type: { openai: 'invalid_request_error', anthropic: 'invalid_request_error', gemini: 'INVALID_ARGUMENT' }[familyOf(client)] });
  });
});
