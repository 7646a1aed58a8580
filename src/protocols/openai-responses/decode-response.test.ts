import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/gateway-error.js';
import type { GenerateResponse } from '../../core/generate-response.js';
import type { JsonObject } from '../read-fields.js';
import { openAIResponsesCodec } from './codec.js';

const FIXTURES = new URL('../../../test/fixtures/openai-responses/', import.meta.url);
const readText = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');
const readJson = (name: string) => JSON.parse(readText(name)) as JsonObject;
const outputOf = (name: string, index: number) => (readJson(name).output as JsonObject[])[index];
const own = (metadata: Record<string, unknown>) => ({ protocolMetadata: { 'openai-responses': metadata } });

type Expected = Omit<GenerateResponse, 'usage'> & { usage: Omit<GenerateResponse['usage'], 'raw'> };

const EXPECTED: Record<string, () => Expected> = {
  'text.json': () => ({
    id: 'resp_68c2e8c147ac819491bcd667055eadbc02e845978fbbb592',
    model: 'gpt-4o-2024-08-06',
    choices: [
      {
        index: 0,
        content: [{ type: 'text', text: 'The capital of France is Paris.', ...own({ itemId: 'msg_68c2e8c26114819489dae5b59fceb7bf02e845978fbbb592' }) }],
        finishReason: { unified: 'stop', raw: 'completed' },
      },
    ],
    usage: { input: { total: 14, noCache: 14, cacheRead: 0 }, output: { total: 8, text: 8, reasoning: 0 } },
  }),
  'cached-tokens.json': () => ({
    id: 'resp_0dec647b9ff1df8d006a5716666d8c8199aaf0491f9a22e34d',
    model: 'gpt-5.6-sol',
    choices: [
      {
        index: 0,
        content: [{ type: 'text', text: 'OK', ...own({ itemId: 'msg_0dec647b9ff1df8d006a571667e5a48199b4749837524ccbf1', phase: 'final_answer' }) }],
        finishReason: { unified: 'stop', raw: 'completed' },
      },
    ],
    usage: { input: { total: 4020, noCache: 8, cacheRead: 4012, cacheWrite: 0 }, output: { total: 5, text: 5, reasoning: 0 } },
  }),
  'parallel-tool-calls.json': () => ({
    id: 'resp_685ff8928dc4819aac45e085ba66838101c537ddeff5c2a2',
    model: 'gpt-4.1-nano-2025-04-14',
    choices: [
      {
        index: 0,
        content: [
          { type: 'tool-call', toolCallId: 'call_tYDv1bhtioyX33juEGDY4D6H', toolName: 'get_weather', input: '{"location":"London"}', ...own({ itemId: 'fc_685ff89422ec819a977b2ea385bc9b6601c537ddeff5c2a2' }) },
          { type: 'tool-call', toolCallId: 'call_lC079UhGnLJngBlPQO0FS6sv', toolName: 'get_weather', input: '{"location":"London"}', ...own({ itemId: 'fc_685ff8946404819a9cb0567e7efe0e8401c537ddeff5c2a2' }) },
        ],
        finishReason: { unified: 'tool-calls', raw: 'completed' },
      },
    ],
    usage: { input: { total: 58, noCache: 58, cacheRead: 0 }, output: { total: 44, text: 44, reasoning: 0 } },
  }),
  'reasoning-summary.json': () => ({
    id: 'resp_0b028a7a2aca8d68006942f4e05a848193a3052f1530ea1deb',
    model: 'gpt-5.2-2025-12-11',
    choices: [
      {
        index: 0,
        content: [
          {
            type: 'reasoning',
            text: (outputOf('reasoning-summary.json', 0).summary as JsonObject[])[0].text as string,
            ...own({ itemId: 'rs_0b028a7a2aca8d68006942f4e0d380819398dfa502c33bce7b', encryptedContent: outputOf('reasoning-summary.json', 0).encrypted_content }),
          },
          {
            type: 'text',
            text: (outputOf('reasoning-summary.json', 1).content as JsonObject[])[0].text as string,
            ...own({ itemId: 'msg_0b028a7a2aca8d68006942f4e484e08193afa69324a01f6707' }),
          },
        ],
        finishReason: { unified: 'stop', raw: 'completed' },
      },
    ],
    usage: { input: { total: 34, noCache: 34, cacheRead: 0 }, output: { total: 226, text: 167, reasoning: 59 } },
  }),
  'structured-output.json': () => ({
    id: readJson('structured-output.json').id as string,
    model: readJson('structured-output.json').model as string,
    choices: [
      {
        index: 0,
        content: [{ type: 'text', text: '{"city":"Mexico City","country":"Mexico"}', ...own({ itemId: 'msg_68477f10846c81929f1e833b0785e6f3020197534e39cc1f' }) }],
        finishReason: { unified: 'stop', raw: 'completed' },
      },
    ],
    usage: { input: { total: 89, noCache: 89, cacheRead: 0 }, output: { total: 16, text: 16, reasoning: 0 } },
  }),
  'tool-call.json': () => ({
    id: 'resp_04907f5d3de791830068fbaa19bb908195a91378279dba0f14',
    model: 'gpt-4o-2024-08-06',
    choices: [
      {
        index: 0,
        content: [
          { type: 'tool-call', toolCallId: 'call_YfwRsW8sUxDKipwyhWTzOXCA', toolName: 'get_capital', input: '{"country":"PotatoLand"}', ...own({ itemId: 'fc_04907f5d3de791830068fbaa1b310c81958dc9c508e878c632' }) },
        ],
        finishReason: { unified: 'tool-calls', raw: 'completed' },
      },
    ],
    usage: { input: { total: 40, noCache: 40, cacheRead: 0 }, output: { total: 18, text: 18, reasoning: 0 } },
  }),
};

describe('decodeOpenAIResponsesResponse on recorded bodies', () => {
  it('has an expectation for every .json fixture', () => {
    const bodies = readdirSync(FIXTURES).filter((name) => name.endsWith('.json'));
    expect(bodies.sort()).toEqual([...Object.keys(EXPECTED), 'error-400.json'].sort());
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`decodes ${name}`, () => {
      const { usage, ...rest } = expected();
      expect(openAIResponsesCodec.decodeResponse(readJson(name))).toEqual({ ...rest, usage: { ...usage, raw: readJson(name).usage } });
    });
  }

  it('decodes the error body with the shared OpenAI envelope', () => {
    const error = openAIResponsesCodec.decodeError(400, readText('error-400.json'));
    expect(error).toBeInstanceOf(GatewayError);
    expect({ code: error.code, status: error.status, param: error.param, detailCode: error.detailCode, message: error.message }).toEqual({
      code: 'invalid_request',
      status: 400,
      param: 'temperature',
      detailCode: 'decimal_below_min_value',
      message: "Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got -1 instead.",
    });
    expect(error.upstream).toEqual({ status: 400, body: readText('error-400.json'), contentType: 'application/json' });
  });

  it('maps incomplete responses and keeps refusals as text', () => {
    const decoded = openAIResponsesCodec.decodeResponse({
      id: 'r',
      status: 'incomplete',
      incomplete_details: { reason: 'content_filter' },
      output: [{ type: 'message', id: 'm', content: [{ type: 'refusal', refusal: 'I cannot help with that.' }] }],
    });
    expect(decoded.choices[0]).toEqual({
      index: 0,
      content: [{ type: 'text', text: 'I cannot help with that.', ...own({ itemId: 'm' }) }],
      finishReason: { unified: 'content-filter', raw: 'content_filter' },
    });
  });

  it('throws for a failed response and for a body that is not a Response', () => {
    expect(() => openAIResponsesCodec.decodeResponse({ status: 'failed', output: [], error: { code: 'server_error', message: 'Boom' } })).toThrow(
      expect.objectContaining({ code: 'upstream_error', detailCode: 'server_error', message: 'Boom' }),
    );
    expect(() => openAIResponsesCodec.decodeResponse({ choices: [] })).toThrow(GatewayError);
  });
});
