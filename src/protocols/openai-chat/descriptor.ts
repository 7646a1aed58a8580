import type { ListedModel, ProtocolDescriptor } from '../protocol-descriptor.js';
import { openAIChatCodec } from './codec.js';

/** OpenAI Chat Completions, and the model list every OpenAI-style client reads. */
export const openAIChatProtocol: ProtocolDescriptor = {
  id: 'openai-chat',
  codec: openAIChatCodec,
  routes: [
    { method: 'POST', path: '/v1/chat/completions', endpoint: { kind: 'generate' } },
    { method: 'GET', path: '/v1/models', endpoint: { kind: 'models' } },
    { method: 'GET', path: '/v1/models/{model}', endpoint: { kind: 'model' }, modelPrefix: 'models/' },
  ],
  upstreamAuthHeaders: (apiKey): Record<string, string> => (apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  choiceCountField: 'n',
  servesChoices: true,
  defaultModelKey: 'openai-chat',
  upstreamModelsPath: '/models',
  models: {
    encodeList: (models) => ({ object: 'list', data: models.map(toOpenAIModel) }),
    encodeModel: toOpenAIModel,
  },
};

function toOpenAIModel(model: ListedModel) {
  return { id: model.id, object: 'model', created: model.created, owned_by: model.ownedBy };
}
