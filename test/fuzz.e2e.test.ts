import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from './helpers/fake-upstream.js';
import { createUpstreamProviders, FIXTURE_FILES, type UpstreamProtocol } from './helpers/fake-protocol-upstream.js';
import { readFixture } from './helpers/fixtures.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

/**
 * Mutated request bodies (wrong types, missing fields, huge numbers, deep nesting, odd unicode,
 * empty arrays, nulls, duplicates) on the four generation endpoints, to mock models and to fake
 * upstreams of every protocol (translated and passthrough). Every answer is a 2xx, or a 4xx in
 * the protocol's own envelope: never a 5xx, never an internal error in the log. The seed is
 * random per run and printed on failure; `FUZZ_SEED=<n>` replays a run.
 */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const BODIES = 400;

type Client = UpstreamProtocol;
const CLIENTS: Client[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'];
const MODELS = ['mock-echo', 'mock-tools', 'up-chat/m-text', 'up-chat/m-tool', 'up-anthropic/m-tool', 'up-responses/m-text', 'up-gemini/m-tool', 'up-gemini/m-text'];

/** mulberry32: small, seedable, good enough to pick mutations. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}
type Random = ReturnType<typeof createRandom>;

const SCHEMA = {
  type: 'object',
  properties: { query: { type: 'string', description: 'What to look up' }, options: { type: 'object', properties: { limit: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } } },
  required: ['query'],
};
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A valid body of each protocol, using what the protocol offers: images, tool calls and results, schemas. */
function baseBody(client: Client, model: string, stream: boolean): Record<string, unknown> {
  switch (client) {
    case 'openai-chat':
      return {
        model,
        stream,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'What is the weather?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }] },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"query":"weather"}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
          { role: 'user', content: 'Thanks, and tomorrow?' },
        ],
        tools: [{ type: 'function', function: { name: 'lookup', description: 'Looks things up.', parameters: SCHEMA } }],
        tool_choice: 'auto',
        temperature: 0.5,
        max_completion_tokens: 200,
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: SCHEMA } },
      };
    case 'openai-responses':
      return {
        model,
        stream,
        instructions: 'Be brief.',
        input: [
          { role: 'user', content: [{ type: 'input_text', text: 'What is the weather?' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}` }] },
          { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"query":"weather"}' },
          { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
          { role: 'user', content: 'Thanks, and tomorrow?' },
        ],
        tools: [{ type: 'function', name: 'lookup', description: 'Looks things up.', parameters: SCHEMA, strict: false }],
        text: { format: { type: 'json_schema', name: 'answer', schema: SCHEMA } },
        temperature: 0.5,
        max_output_tokens: 200,
      };
    case 'anthropic-messages':
      return {
        model,
        stream,
        max_tokens: 200,
        system: [{ type: 'text', text: 'Be brief.' }],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'What is the weather?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] },
          { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }, { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { query: 'weather' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }, { type: 'text', text: 'And tomorrow?' }] },
        ],
        tools: [{ name: 'lookup', description: 'Looks things up.', input_schema: SCHEMA }],
        tool_choice: { type: 'auto' },
        temperature: 0.5,
      };
    case 'gemini':
      return {
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        contents: [
          { role: 'user', parts: [{ text: 'What is the weather?' }, { inlineData: { mimeType: 'image/png', data: PNG } }] },
          { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { query: 'weather' } } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { output: 'sunny' } } }, { text: 'And tomorrow?' }] },
        ],
        tools: [{ functionDeclarations: [{ name: 'lookup', description: 'Looks things up.', parameters: SCHEMA }] }],
        generationConfig: { temperature: 0.5, maxOutputTokens: 200, responseMimeType: 'application/json', responseSchema: SCHEMA },
      };
  }
}

/** Nesting around and past the limit, written as text (JSON.stringify cannot write it that deep). */
function deepValue(random: Random): string {
  const depth = random.pick([120, 200, 257, 300, 3_000, 20_000]);
  switch (random.int(3)) {
    case 0:
      return '['.repeat(depth) + ']'.repeat(depth);
    case 1:
      return '{"a":'.repeat(depth) + 'null' + '}'.repeat(depth);
    default:
      // A deep JSON Schema: what tool parameters and response formats carry.
      return '{"type":"object","properties":{"x":'.repeat(depth) + '{"type":"string"}' + '}}'.repeat(depth);
  }
}

/** Values written into the JSON text as they are (JSON.stringify cannot write them). */
function rawValue(random: Random): string {
  switch (random.int(6)) {
    case 0:
    case 1:
    case 2:
      return deepValue(random);
    case 3:
      return random.pick(['1e400', '-1e400', '1e-400', '-0', '123456789012345678901234567890', '9007199254740993']);
    case 4:
      return random.pick(['"\\ud800"', '"\\udfff\\ud800"', '"\\u0000"', '"a\\u0000b"']);
    default:
      return `[${Array.from({ length: random.int(3) + 1 }, () => '{"type":"object","properties":{}}').join(',')}]`;
  }
}

const PRIMITIVES: unknown[] = [null, 0, -1, 1.5, 2 ** 31, -(2 ** 53), 1e308, true, false, '', ' ', 'x', [], {}, [null], { '': null }, [[]], [{}]];
const STRINGS = ['😀𝕏 mixed ✓', 'مرحبا بالعالم', '\u202eevil', 'line\nbreak\ttab', '\u0000', 'x'.repeat(20_000), '{"not":"json"', 'null', '[]', 'data:image/png;base64,!!!', 'https://127.0.0.1:1/nothing.png'];

interface Slot {
  parent: Record<string, unknown> | unknown[];
  key: string | number;
  /** Inside a value the gateway does not validate but carries on (a schema, tool arguments). */
  freeForm: boolean;
}

/** Where a client's own JSON goes: the gateway converts it without knowing its shape. */
const FREE_FORM_KEYS = new Set(['parameters', 'input_schema', 'schema', 'responseSchema', 'args', 'input', 'response']);

/** Every place in a body a value can be changed or removed. */
function slotsOf(root: Record<string, unknown>): Slot[] {
  const slots: Slot[] = [];
  const pending: Array<{ value: Record<string, unknown> | unknown[]; freeForm: boolean }> = [{ value: root, freeForm: false }];
  while (pending.length > 0) {
    const { value: parent, freeForm } = pending.pop()!;
    const keys: Array<string | number> = Array.isArray(parent) ? parent.map((_, index) => index) : Object.keys(parent);
    for (const key of keys) {
      slots.push({ parent, key, freeForm });
      const value = (parent as Record<string | number, unknown>)[key];
      // Responses' `input` is the conversation, not a tool's arguments.
      const opensFreeForm = typeof key === 'string' && FREE_FORM_KEYS.has(key) && !(key === 'input' && parent === root);
      if (typeof value === 'object' && value !== null) pending.push({ value: value as Record<string, unknown>, freeForm: freeForm || opensFreeForm });
    }
  }
  return slots;
}

/** Changes one place in the body; raw values go in as markers, replaced in the text. */
function mutate(body: Record<string, unknown>, random: Random, raws: string[]): string {
  const slots = slotsOf(body);
  if (slots.length === 0) return 'empty body';
  const mutation = random.int(8);
  const freeForm = slots.filter((slot) => slot.freeForm);
  // The last kind nests deep inside a schema or tool arguments, where no validation stops it early.
  const { parent, key } = random.pick(mutation === 7 && freeForm.length > 0 ? freeForm : slots);
  const holder = parent as Record<string | number, unknown>;
  switch (mutation) {
    case 0:
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete holder[key];
      return `removed ${key}`;
    case 1:
      holder[key] = random.pick(PRIMITIVES);
      return `${key} = ${JSON.stringify(holder[key])}`;
    case 2:
      holder[key] = random.pick(STRINGS);
      return `${key} = a string`;
    case 3:
    case 7:
      holder[key] = `__RAW_${raws.length}__`;
      raws.push(mutation === 7 ? deepValue(random) : rawValue(random));
      return `${key} = raw ${raws[raws.length - 1]!.slice(0, 40)}`;
    case 4:
      holder[key] = Array.isArray(holder[key]) ? [] : null;
      return `${key} emptied`;
    case 5: {
      // A duplicate: two tools of one name, a repeated message, a repeated part.
      const value = holder[key];
      if (Array.isArray(value) && value.length > 0) value.push(structuredClone(value[0]));
      else if (Array.isArray(parent)) parent.push(structuredClone(value));
      else holder[`${key}_extra`] = structuredClone(value);
      return `duplicated ${key}`;
    }
    default: {
      const value = holder[key];
      holder[key] = typeof value === 'number' ? random.pick([-value, value * 1e12, value + 0.5, Number.MAX_SAFE_INTEGER]) : typeof value === 'string' ? value + random.pick(STRINGS) : { value };
      return `${key} bent`;
    }
  }
}

/** One fuzzed request: its endpoint, headers and body text. */
function fuzzedRequest(random: Random) {
  const client = random.pick(CLIENTS);
  const model = random.pick(MODELS);
  const stream = random.next() < 0.3;
  const body = baseBody(client, model, stream);
  const raws: string[] = [];
  const changes = Array.from({ length: random.int(3) + 1 }, () => mutate(body, random, raws));
  let text = JSON.stringify(body);
  raws.forEach((raw, index) => (text = text.replace(`"__RAW_${index}__"`, raw)));
  if (random.next() < 0.03) text = text.slice(0, random.int(text.length));
  const path = {
    'openai-chat': '/v1/chat/completions',
    'openai-responses': '/v1/responses',
    'anthropic-messages': '/v1/messages',
    gemini: `/v1beta/models/${encodeURIComponent(model)}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
  }[client];
  return { client, model, stream, path, text, changes };
}

/** A fake upstream of every protocol that answers anything it can read, and a 400 otherwise (as vendors do). */
function reply(request: RecordedRequest): FakeReply {
  const path = request.path.split('?')[0]!;
  const protocol: UpstreamProtocol = path.endsWith('/chat/completions') ? 'openai-chat' : path.endsWith('/messages') ? 'anthropic-messages' : path.endsWith('/responses') ? 'openai-responses' : 'gemini';
  let body: any;
  try {
    body = JSON.parse(request.body);
  } catch {
    return { status: 400, json: JSON.stringify({ error: { message: 'Not JSON.', type: 'invalid_request_error' } }) };
  }
  const model = protocol === 'gemini' ? decodeURIComponent(/models\/(.+):/.exec(path)?.[1] ?? '') : String(body?.model ?? '');
  const stream = protocol === 'gemini' ? path.includes(':streamGenerateContent') : body?.stream === true;
  const file = FIXTURE_FILES[protocol][model.endsWith('tool') ? 'tool' : 'text'][stream ? 'stream' : 'json'];
  const fixture = readFixture(protocol, file);
  return stream ? { sse: fixture } : { json: fixture };
}

/** Whether a 4xx body is the protocol's own error envelope. */
function isEnvelope(client: Client, body: any): boolean {
  if (client === 'anthropic-messages') return body?.type === 'error' && typeof body.error?.type === 'string' && typeof body.error.message === 'string';
  if (client === 'gemini') return typeof body?.error?.code === 'number' && typeof body.error.status === 'string' && typeof body.error.message === 'string';
  return typeof body?.error?.type === 'string' && typeof body.error.message === 'string';
}

let upstream: FakeUpstream;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startFakeUpstream(reply);
  gateway = await startTestGateway({ providers: createUpstreamProviders(upstream.url) });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

async function send(request: ReturnType<typeof fuzzedRequest>) {
  const response = await fetch(gateway.url + request.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-fuzz', 'anthropic-version': '2023-06-01', 'x-goog-api-key': 'fuzz' },
    body: request.text,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}

describe(`fuzzed bodies (FUZZ_SEED=${SEED})`, () => {
  it('the unmutated bodies are served, so that mutations are measured against a request that works', async () => {
    for (const client of CLIENTS) {
      for (const model of MODELS) {
        for (const stream of [false, true]) {
          const path = { 'openai-chat': '/v1/chat/completions', 'openai-responses': '/v1/responses', 'anthropic-messages': '/v1/messages', gemini: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}` }[client];
          const answer = await send({ client, model, stream, path, text: JSON.stringify(baseBody(client, model, stream)), changes: [] });
          expect({ client, model, stream, status: answer.status, body: answer.status === 200 ? '' : answer.text }).toEqual({ client, model, stream, status: 200, body: '' });
        }
      }
    }
  });

  it(`${BODIES} mutated bodies get a 2xx or a 4xx in their protocol's envelope, never a 5xx`, async () => {
    const random = createRandom(SEED);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    // Four at a time: enough to overlap the requests' waits on two cores, bounded in count.
    for (let start = 0; start < BODIES; start += 4) {
      const batch = Array.from({ length: Math.min(4, BODIES - start) }, () => fuzzedRequest(random));
      const answers = await Promise.all(batch.map((request) => send(request).catch((error: unknown) => ({ status: 0, contentType: '', text: `no answer: ${String((error as Error).cause ?? error)}` }))));
      batch.forEach((request, index) => {
        const answer = answers[index]!;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const where = `#${start + index} ${request.client} ${request.model}${request.stream ? ' stream' : ''} [${request.changes.join('; ')}]`;
        if (answer.status >= 500 || answer.status === 0) failures.push(`${where}: ${answer.status} ${answer.text.slice(0, 200)}`);
        else if (answer.status >= 400 && !isEnvelope(request.client, JSON.parse(answer.text))) failures.push(`${where}: ${answer.status} not in the envelope: ${answer.text.slice(0, 200)}`);
        else if (answer.text.includes('Internal gateway error')) failures.push(`${where}: ${answer.status} with an internal error inside: ${answer.text.slice(0, 200)}`);
      });
    }
    // The log says why: an internal error is logged with its cause and stack.
    const internalErrors = gateway.logs.filter((line) => line.includes('internal error') || line.includes('failed=internal'));
    expect({ failures, internalErrors }, `FUZZ_SEED=${SEED} replays this run`).toEqual({ failures: [], internalErrors: [] });
    // Both kinds of answer happened: the mutations are neither all harmless nor all refused.
    const ok = [...statuses].filter(([status]) => status < 300).reduce((sum, [, count]) => sum + count, 0);
    expect(ok).toBeGreaterThan(BODIES / 20);
    expect(BODIES - ok).toBeGreaterThan(BODIES / 20);

    // And the gateway still answers.
    const after = await send({ client: 'openai-chat', model: 'mock-echo', stream: false, path: '/v1/chat/completions', text: JSON.stringify(baseBody('openai-chat', 'mock-echo', false)), changes: [] });
    expect(after.status).toBe(200);
  }, 60_000);
});
