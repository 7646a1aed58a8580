import type { ProtocolDescriptor } from '../protocol-descriptor.js';
import { openAIResponsesCodec } from './codec.js';

/** The OpenAI Responses API. */
export const openAIResponsesProtocol: ProtocolDescriptor = {
  id: 'openai-responses',
  codec: openAIResponsesCodec,
  routes: [
    { method: 'POST', path: '/v1/responses', endpoint: { kind: 'generate' } },
    { method: 'POST', path: '/v1/responses/input_tokens', endpoint: { kind: 'count-tokens' } },
    // Codex CLI may try a WebSocket first; 426 makes it fall back to HTTP at once (400 would be fatal).
    { method: 'GET', path: '/v1/responses', endpoint: { kind: 'refuse', status: 426, message: 'WebSocket is not supported on /v1/responses; use HTTP POST.' } },
  ],
  upstreamAuthHeaders: (apiKey): Record<string, string> => (apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  choiceCountField: 'n',
  servesChoices: false,
  defaultModelKey: 'openai-responses',
  upstreamModelsPath: '/models',
  countTokens: {
    normalizeBody: (body) => ({ input: '', ...body }),
    encode: (tokens) => ({ object: 'response.input_tokens', input_tokens: tokens }),
  },
};
