import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

let open: TestGateway;
let keyed: TestGateway;

beforeAll(async () => {
  open = await startTestGateway({ server: { bodyLimitMb: 1 } });
  keyed = await startTestGateway({ keys: [{ key: 'sk-alice', user: 'alice' }] });
});
afterAll(async () => {
  await open.close();
  await keyed.close();
});

async function post(gateway: TestGateway, body: string | object, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-any', 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text, requestId: response.headers.get('x-request-id') };
}

const valid = { model: 'mock-echo', messages: [{ role: 'user', content: 'hi' }] };

describe('bad input gets the OpenAI envelope and the right status', () => {
  it.each([
    ['malformed JSON', '{"model": "mock-echo",', 400, null, 'not valid JSON'],
    ['a body that is not an object', '[1,2]', 400, null, 'must be a JSON object'],
    ['a missing model', { messages: valid.messages }, 400, 'model', "Missing required parameter: 'model'"],
    ['missing messages', { model: 'mock-echo' }, 400, 'messages', "'messages'"],
    ['empty messages', { model: 'mock-echo', messages: [] }, 400, 'messages', 'empty array'],
    ['a wrong type', { ...valid, temperature: 'hot' }, 400, 'temperature', 'expected a number'],
    ['temperature above 2', { ...valid, temperature: 2.5 }, 400, 'temperature', 'greater than the maximum of 2'],
    ['top_p above 1', { ...valid, top_p: 1.5 }, 400, 'top_p', 'maximum of 1'],
    ['presence_penalty below -2', { ...valid, presence_penalty: -3 }, 400, 'presence_penalty', 'minimum of -2'],
    ['frequency_penalty above 2', { ...valid, frequency_penalty: 2.1 }, 400, 'frequency_penalty', 'maximum of 2'],
    ['n that is not an integer', { ...valid, n: 1.5 }, 400, 'n', 'integer'],
    ['max_completion_tokens of 0', { ...valid, max_completion_tokens: 0 }, 400, 'max_completion_tokens', 'minimum of 1'],
    ['an unknown role', { ...valid, messages: [{ role: 'wizard', content: 'x' }] }, 400, 'messages[0].role', "'wizard'"],
    ['a tool without a name', { ...valid, tools: [{ type: 'function', function: {} }] }, 400, 'tools[0].function.name', 'Missing'],
    ['a bad response_format', { ...valid, response_format: { type: 'yaml' } }, 400, 'response_format.type', "'yaml'"],
    ['stream_options without stream', { ...valid, stream_options: { include_usage: true } }, 400, 'stream_options', 'only allowed'],
    ['five stop sequences', { ...valid, stop: ['a', 'b', 'c', 'd', 'e'] }, 400, 'stop', 'at most 4'],
  ])('%s', async (_name, body, status, param, message) => {
    const response = await post(open, body);
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param, message: expect.stringContaining(message as string) });
    expect(response.requestId).toBeTruthy();
  });

  it('an unknown model is a 404 that names the model and how to list models', async () => {
    const response = await post(open, { ...valid, model: 'gpt-nonexistent' });
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect(response.body.error.message).toContain("'gpt-nonexistent'");
    expect(response.body.error.message).toContain('GET /v1/models');
  });

  it('a missing key is a 401', async () => {
    const response = await fetch(`${open.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(valid) });
    expect(response.status).toBe(401);
    expect(((await response.json()) as any).error).toMatchObject({ code: 'invalid_api_key', message: expect.stringContaining('Missing API key') });
  });

  it('with keys configured, only those keys pass', async () => {
    expect((await post(keyed, valid, { authorization: 'Bearer sk-bob' })).status).toBe(401);
    expect((await post(keyed, valid, { authorization: 'Bearer sk-alic' })).status).toBe(401);
    expect((await post(keyed, valid, { authorization: 'Bearer sk-alice' })).status).toBe(200);
  });

  it('a body over the limit is a 413, announced or not', async () => {
    const big = JSON.stringify({ ...valid, messages: [{ role: 'user', content: 'x'.repeat(2 * 1024 * 1024) }] });
    const response = await post(open, big);
    expect(response.status).toBe(413);
    expect(response.body.error.message).toContain('limit of 1 MB');
    // Without content-length (chunked), the limit is enforced while reading.
    const chunked = await fetch(`${open.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk', 'content-type': 'application/json' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('waits for a body that arrives in pieces, announced or chunked', async () => {
    const { connect } = await import('node:net');
    const body = Buffer.from(JSON.stringify({ ...valid, messages: [{ role: 'user', content: 'in pieces' }] }));
    const { hostname, port } = new URL(open.url);
    for (const announce of [true, false]) {
      const head = `POST /v1/chat/completions HTTP/1.1\r\nhost: ${hostname}:${port}\r\nauthorization: Bearer sk\r\ncontent-type: application/json\r\nconnection: close\r\n`;
      const [first, rest] = announce
        ? [`${head}content-length: ${body.length}\r\n\r\n${body.subarray(0, 10)}`, body.subarray(10).toString()]
        : [`${head}transfer-encoding: chunked\r\n\r\na\r\n${body.subarray(0, 10)}\r\n`, `${(body.length - 10).toString(16)}\r\n${body.subarray(10)}\r\n0\r\n\r\n`];
      const answer = await new Promise<string>((resolve, reject) => {
        let received = '';
        const socket = connect(Number(port), hostname, () => {
          // The headers and the first 10 bytes in one write, the rest well after: the gateway must wait.
          socket.write(first);
          setTimeout(() => socket.write(rest), 50);
        });
        socket.on('data', (chunk) => (received += chunk));
        socket.on('end', () => resolve(received));
        socket.on('error', reject);
      });
      expect(answer.startsWith('HTTP/1.1 200')).toBe(true);
      expect(answer).toContain('in pieces');
    }
  });

  it('a non-JSON content type is a 415', async () => {
    const response = await post(open, JSON.stringify(valid), { 'content-type': 'text/plain' });
    expect(response.status).toBe(415);
    expect(response.body.error.message).toContain('application/json');
  });

  it('keeps serving after all of that, and never leaks a stack trace', async () => {
    const response = await post(open, valid);
    expect(response.status).toBe(200);
    expect(response.body.choices[0].message.content).toBe('hi');
    expect(open.logs.join('\n')).not.toContain('sk-any');
  });
});
