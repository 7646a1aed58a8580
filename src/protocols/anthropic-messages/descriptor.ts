import type { ListedModel, ProtocolDescriptor } from '../protocol-descriptor.js';
import { anthropicMessagesCodec } from './codec.js';

/** Default `anthropic-version` for upstream calls when the client sent none (docs/protocols.md §0). */
const ANTHROPIC_VERSION = '2023-06-01';

/** Anthropic Messages. Its clients list models on OpenAI's path, marked by `anthropic-version` (Claude Code's model discovery). */
export const anthropicMessagesProtocol: ProtocolDescriptor = {
  id: 'anthropic-messages',
  codec: anthropicMessagesCodec,
  routes: [
    { method: 'POST', path: '/v1/messages', endpoint: { kind: 'generate' } },
    { method: 'POST', path: '/v1/messages/count_tokens', endpoint: { kind: 'count-tokens' } },
    { method: 'GET', path: '/v1/models', endpoint: { kind: 'models' } },
    { method: 'GET', path: '/v1/models/{model}', endpoint: { kind: 'model' }, modelPrefix: 'models/' },
  ],
  clientMarkers: ['anthropic-version', 'vendorb-version'],
  clientKey: { headers: ['x-api-key'] },
  requiredHeader: { names: ['anthropic-version', 'vendorb-version'], message: 'anthropic-version: header is required.' },
  upstreamAuthHeaders: (apiKey): Record<string, string> => (apiKey ? { 'anthropic-version': ANTHROPIC_VERSION, 'x-api-key': apiKey } : { 'anthropic-version': ANTHROPIC_VERSION }),
  // Betas must reach Anthropic intact.
  forwardedClientHeaders: ['anthropic-beta', 'anthropic-version'],
  choiceCountField: 'n',
  servesChoices: false,
  defaultModelKey: 'anthropic-messages',
  upstreamModelsPath: '/v1/models?limit=1000',
  countTokens: {
    normalizeBody: (body) => ({ max_tokens: 1, ...body }),
    encode: (tokens) => ({ input_tokens: tokens }),
  },
  models: {
    encodeList(models) {
      const data = models.map(toAnthropicModel);
      return { object: 'list', data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
    },
    encodeModel: toAnthropicModel,
  },
};

/** OpenAI's fields, which Anthropic's SDK ignores, and Anthropic's. */
function toAnthropicModel(model: ListedModel) {
  return {
    id: model.id,
    object: 'model',
    created: model.created,
    owned_by: model.ownedBy,
    type: 'model',
    display_name: model.id,
    created_at: new Date(model.created * 1000).toISOString(),
    // Required by the newest SDKs' ModelInfo.
    lifecycle: 'active',
  };
}
