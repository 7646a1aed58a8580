import type { H3, H3Event } from 'h3';
import type { CatalogModel } from '../gateway/model-catalog.js';
import type { Gateway } from '../gateway/create-gateway.js';
import { errorResponse, jsonResponse } from './to-http-response.js';
import { GatewayError } from '../core/gateway-error.js';

/**
 * `GET /v1/models` in the shape the asking client expects: Gemini's (`{models}`) when the request
 * carries a Gemini key (@google/genai 3.x lists models there), OpenAI's with Anthropic's fields
 * added when it carries `anthropic-version` (Claude Code's model discovery), OpenAI's otherwise.
 * No auth, as the spec says.
 */
export function registerModelsRoutes(app: H3, gateway: Gateway): void {
  app.get('/v1/models', (event) => {
    const models = gateway.listModels();
    if (wantsGemini(event)) return jsonResponse(event, { models: models.map(toGeminiModel) });
    if (wantsAnthropic(event)) {
      const data = models.map((model) => Object.assign(toOpenAIModel(model), toAnthropicFields(model)));
      return jsonResponse(event, { object: 'list', data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
    }
    return jsonResponse(event, { object: 'list', data: models.map(toOpenAIModel) });
  });
  app.get('/v1beta/models', (event) => jsonResponse(event, { models: gateway.listModels().map(toGeminiModel) }));
  app.get('/v1/models/**', (event) => singleModel(event, gateway, wantsGemini(event) ? 'gemini' : wantsAnthropic(event) ? 'anthropic' : 'openai'));
  app.get('/v1beta/models/**', (event) => singleModel(event, gateway, 'gemini'));
}

function singleModel(event: H3Event, gateway: Gateway, shape: 'openai' | 'anthropic' | 'gemini') {
  const prefix = event.url.pathname.startsWith('/v1beta/') ? '/v1beta/models/' : '/v1/models/';
  const id = decodeURIComponent(event.url.pathname.slice(prefix.length)).replace(/^models\//, '');
  const model = gateway.listModels().find((entry) => entry.id === id);
  const protocol = shape === 'gemini' ? 'gemini' : shape === 'anthropic' ? 'anthropic-messages' : 'openai-chat';
  if (!model) return errorResponse(event, protocol, new GatewayError('not_found', `The model '${id}' does not exist. List the available models with GET /v1/models.`, { detailCode: 'model_not_found' }));
  if (shape === 'gemini') return jsonResponse(event, toGeminiModel(model));
  if (shape === 'anthropic') return jsonResponse(event, Object.assign(toOpenAIModel(model), toAnthropicFields(model)));
  return jsonResponse(event, toOpenAIModel(model));
}

const wantsGemini = (event: H3Event) => event.req.headers.has('x-goog-api-key') || event.req.headers.has('x-vendorc-api-key');
const wantsAnthropic = (event: H3Event) => event.req.headers.has('anthropic-version') || event.req.headers.has('vendorb-version');

function toOpenAIModel(model: CatalogModel) {
  return { id: model.id, object: 'model', created: model.created, owned_by: model.ownedBy };
}

function toAnthropicFields(model: CatalogModel) {
  return { type: 'model', display_name: model.id, created_at: new Date(model.created * 1000).toISOString() };
}

function toGeminiModel(model: CatalogModel) {
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
