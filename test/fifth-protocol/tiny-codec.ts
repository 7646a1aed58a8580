import { GatewayError, invalidRequest, mapStatusToErrorCode } from '../../src/core/gateway-error.js';
import type { GenerateRequest } from '../../src/core/generate-request.js';
import type { GenerateResponse } from '../../src/core/generate-response.js';
import type { StreamPart } from '../../src/core/stream-part.js';
import { createUsageFromTotals, type Usage } from '../../src/core/usage.js';
import { requestWithoutPrompt, type ProtocolCodec, type ResponseContext, type StreamDecoder, type StreamEncoder } from '../../src/protocols/protocol-codec.js';
import type { SseEvent } from '../../src/sse/sse-event.js';
import { sseData, SSE_KEEP_ALIVE_COMMENT } from '../../src/sse/write-sse.js';

/**
 * "Tiny", a made-up protocol that shows what a fifth one takes: `POST /tiny/generate` with
 * `{model, prompt, stream}`; an answer `{id, model, text, finish, tokens: {in, out}}`; a stream of
 * `data: {"text"}` records closed by `data: {"finish", "tokens"}`; errors `{failure: {message, code}}`.
 */
export const TINY_PATH = '/tiny/generate';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function decodeTinyRequest(body: unknown): GenerateRequest {
  if (!isObject(body)) throw invalidRequest(undefined, 'Expected a JSON object.');
  if (typeof body.model !== 'string') throw invalidRequest('model', "Invalid 'model': expected a string.");
  if (typeof body.prompt !== 'string') throw invalidRequest('prompt', "Invalid 'prompt': expected a string.");
  return { model: body.model, system: [], messages: [{ role: 'user', content: [{ type: 'text', text: body.prompt }] }], tools: [], stream: body.stream === true, extensions: {} };
}

function promptOf(request: GenerateRequest): string {
  const texts: string[] = [];
  for (const message of request.messages) {
    if (message.role !== 'user') continue;
    for (const part of message.content) if (part.type === 'text') texts.push(part.text);
  }
  return texts.join('\n');
}

const tokensOf = (usage: Usage) => ({ in: usage.input.total ?? 0, out: usage.output.total ?? 0 });

function encodeTinyResponse(response: GenerateResponse, context: ResponseContext) {
  const [choice] = response.choices;
  const text = choice.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return { id: context.requestId, model: context.model, text, finish: choice.finishReason.unified, tokens: tokensOf(response.usage) };
}

class TinyStreamEncoder implements StreamEncoder {
  encode(part: StreamPart): string {
    if (part.type === 'text-delta') return sseData(JSON.stringify({ text: part.delta }));
    if (part.type === 'finish') return sseData(JSON.stringify({ finish: part.finishReason.unified, tokens: tokensOf(part.usage) }));
    if (part.type === 'error') return sseData(JSON.stringify({ failure: { message: part.error.message, code: part.error.code } }));
    return '';
  }
  finish(): string {
    return '';
  }
  keepAlive(): string {
    return SSE_KEEP_ALIVE_COMMENT;
  }
}

class TinyStreamDecoder implements StreamDecoder {
  #started = false;
  #ended = false;

  decode(event: SseEvent): StreamPart[] {
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch (error) {
      this.#ended = true;
      return [{ type: 'error', error: new GatewayError('upstream_error', 'The upstream sent an event that is not JSON.', { status: 502, cause: error }) }];
    }
    if (!isObject(data)) return [];
    const parts: StreamPart[] = [];
    if (!this.#started && (typeof data.text === 'string' || typeof data.finish === 'string')) {
      this.#started = true;
      parts.push({ type: 'start' }, { type: 'text-start', id: 't0' });
    }
    if (typeof data.text === 'string') parts.push({ type: 'text-delta', id: 't0', delta: data.text });
    if (typeof data.finish === 'string') {
      this.#ended = true;
      const tokens = isObject(data.tokens) ? data.tokens : {};
      const finish = data.finish === 'length' ? 'length' : 'stop';
      parts.push({ type: 'text-end', id: 't0' }, { type: 'finish', finishReason: { unified: finish, raw: data.finish }, usage: createUsageFromTotals({ input: Number(tokens.in), output: Number(tokens.out) }) });
    }
    if (isObject(data.failure)) {
      this.#ended = true;
      parts.push({ type: 'error', error: new GatewayError('upstream_error', String(data.failure.message)) });
    }
    return parts;
  }

  end(): StreamPart[] {
    if (this.#ended) return [];
    return [{ type: 'error', error: new GatewayError('upstream_error', 'The upstream stream ended before its last event.', { status: 502, detailCode: 'upstream_ended_early' }) }];
  }
}

export const tinyCodec: ProtocolCodec = {
  protocol: 'tiny',
  decodeRequest: (body) => ({ request: decodeTinyRequest(body), warnings: [] }),
  responseRequestOf: requestWithoutPrompt,
  encodeResponse: encodeTinyResponse,
  createStreamEncoder: () => new TinyStreamEncoder(),
  encodeError: (error) => ({ status: error.status, body: { failure: { message: error.message, code: error.code } } }),
  encodeStreamError: (error) => sseData(JSON.stringify({ failure: { message: error.message, code: error.code } })),
  encodeRequest: (request, options) => ({ path: TINY_PATH, body: { model: options.model, prompt: promptOf(request), stream: request.stream }, warnings: [] }),
  decodeResponse(body) {
    if (!isObject(body) || typeof body.text !== 'string') throw new GatewayError('upstream_error', 'The upstream answer has no text.', { status: 502 });
    const tokens = isObject(body.tokens) ? body.tokens : {};
    const finish = body.finish === 'length' ? 'length' : 'stop';
    return {
      model: typeof body.model === 'string' ? body.model : undefined,
      choices: [{ index: 0, content: [{ type: 'text', text: body.text }], finishReason: { unified: finish, raw: String(body.finish) } }],
      usage: createUsageFromTotals({ input: Number(tokens.in), output: Number(tokens.out) }),
    };
  },
  createStreamDecoder: () => new TinyStreamDecoder(),
  endsStream: (event) => event.data.includes('"finish"') || event.data.includes('"failure"'),
  decodeError(status, body) {
    let message = `The upstream answered HTTP ${status}.`;
    try {
      const parsed: unknown = JSON.parse(body);
      if (isObject(parsed) && isObject(parsed.failure) && typeof parsed.failure.message === 'string') message = parsed.failure.message;
    } catch {
      // Not Tiny's envelope: the status says enough.
    }
    return new GatewayError(mapStatusToErrorCode(status), message, { status, upstream: { status, body } });
  },
  preparePassthrough: (body, options) => ({ path: TINY_PATH, body: body.model === options.model ? undefined : Object.assign({}, body, { model: options.model }) }),
};
