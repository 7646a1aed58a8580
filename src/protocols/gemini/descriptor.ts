import { GatewayError } from '../../core/gateway-error.js';
import type { ListedModel, ProtocolDescriptor, ProtocolRoute } from '../protocol-descriptor.js';
import { isJsonObject } from '../read-fields.js';
import { geminiCodec } from './codec.js';

/** Generation and counting under `/v1beta/`, and the same under `/v1/` (@google/genai 3.x). */
const modelActions = (prefix: string): ProtocolRoute[] => [
  { method: 'POST', path: `${prefix}/models/{model}:generateContent`, endpoint: { kind: 'generate' }, stream: false, modelPrefix: 'models/' },
  { method: 'POST', path: `${prefix}/models/{model}:streamGenerateContent`, endpoint: { kind: 'generate' }, stream: true, modelPrefix: 'models/' },
  { method: 'POST', path: `${prefix}/models/{model}:countTokens`, endpoint: { kind: 'count-tokens' }, modelPrefix: 'models/' },
];

/**
 * Google Gemini: the model and streaming are in the path. Its clients list models on `/v1beta/`,
 * or on OpenAI's `/v1/models` with a Gemini key header (@google/genai 3.x).
 */
export const geminiProtocol: ProtocolDescriptor = {
  id: 'gemini',
  codec: geminiCodec,
  routes: [
    ...modelActions('/v1beta'),
    ...modelActions('/v1'),
    { method: 'GET', path: '/v1beta/models', endpoint: { kind: 'models' } },
    { method: 'GET', path: '/v1beta/models/{model}', endpoint: { kind: 'model' }, modelPrefix: 'models/' },
    { method: 'GET', path: '/v1/models', endpoint: { kind: 'models' } },
    { method: 'GET', path: '/v1/models/{model}', endpoint: { kind: 'model' }, modelPrefix: 'models/' },
  ],
  clientMarkers: ['x-goog-api-key', 'x-vendorc-api-key'],
  // REST clients of Gemini put the key in the query.
  clientKey: { headers: ['x-goog-api-key', 'x-vendorc-api-key'], query: 'key' },
  upstreamAuthHeaders: (apiKey): Record<string, string> => (apiKey ? { 'x-goog-api-key': apiKey } : {}),
  choiceCountField: 'generationConfig.candidateCount',
  servesChoices: true,
  defaultModelKey: 'gemini',
  upstreamModelsPath: '/v1beta/models?pageSize=1000',
  countTokens: {
    normalizeBody(body) {
      // {contents} or {generateContentRequest: {...}} (docs/protocols.md §4.6).
      if (body.generateContentRequest === undefined) return body;
      if (!isJsonObject(body.generateContentRequest)) throw new GatewayError('invalid_request', "Invalid 'generateContentRequest': expected an object.", { param: 'generateContentRequest' });
      return body.generateContentRequest;
    },
    encode: (tokens) => ({ totalTokens: tokens }),
  },
  models: {
    encodeList: (models) => ({ models: models.map(toGeminiModel) }),
    encodeModel: toGeminiModel,
  },
};

function toGeminiModel(model: ListedModel) {
  return {
    name: `models/${model.id}`,
    baseModelId: model.id,
    version: '1',
    displayName: model.id,
    description: `${model.id} served by provider '${model.ownedBy}' through Switchyard.`,
    inputTokenLimit: 1_048_576,
    outputTokenLimit: 65_536,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  };
}
