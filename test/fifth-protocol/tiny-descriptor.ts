import type { ProtocolDescriptor } from '../../src/protocols/protocol-descriptor.js';
import { TINY_PATH, tinyCodec } from './tiny-codec.js';

/** The made-up Tiny protocol as the gateway knows it: everything in one object, nothing elsewhere. */
export const tinyProtocol: ProtocolDescriptor = {
  id: 'tiny',
  codec: tinyCodec,
  routes: [
    { method: 'POST', path: TINY_PATH, endpoint: { kind: 'generate' } },
    { method: 'POST', path: '/tiny/count', endpoint: { kind: 'count-tokens' } },
    { method: 'GET', path: '/tiny/models', endpoint: { kind: 'models' } },
    { method: 'GET', path: '/tiny/models/{model}', endpoint: { kind: 'model' } },
  ],
  clientKey: { headers: ['x-tiny-key'] },
  upstreamAuthHeaders: (apiKey): Record<string, string> => (apiKey ? { 'x-tiny-key': apiKey } : {}),
  choiceCountField: 'n',
  servesChoices: false,
  defaultModelKey: 'tiny',
  upstreamModelsPath: '/tiny/models',
  countTokens: {
    normalizeBody: (body) => body,
    encode: (tokens) => ({ count: tokens }),
  },
  models: {
    encodeList: (models) => ({ names: models.map((model) => model.id) }),
    encodeModel: (model) => ({ name: model.id, provider: model.ownedBy }),
  },
};
