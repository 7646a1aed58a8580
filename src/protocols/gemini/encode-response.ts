import type { GenerateResponse } from '../../core/generate-response.js';
import type { ResponseContext } from '../protocol-codec.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { geminiCandidateFieldsFor } from './candidate-fields.js';
import { hasUsageCounts, toGeminiUsage } from './convert-usage.js';
import { encodeGeminiClientPart } from './encode-part.js';
import { toGeminiFinishReason } from './map-finish-reason.js';

/**
 * Core response → `GenerateContentResponse` (docs/protocols.md §4.4). Tool calls carry
 * the gateway's id, which Gemini clients echo in `functionResponse.id`. A prompt that Gemini
 * blocked goes back as it came: `promptFeedback` and no candidates.
 */
export function encodeGeminiResponse(response: GenerateResponse, context: ResponseContext): JsonObject {
  const metadata = response.protocolMetadata?.gemini;
  const promptFeedback = metadata?.promptFeedback;
  const blocked = isJsonObject(promptFeedback) && promptFeedback.blockReason !== undefined && response.choices.every((choice) => choice.content.length === 0);
  const includeThoughts = context.request.reasoning?.includeThoughts === true;
  const body: JsonObject = {};
  if (!blocked) {
    body.candidates = response.choices.map((choice) => ({
      content: { role: 'model', parts: choice.content.flatMap((part) => encodeGeminiClientPart(part, includeThoughts) ?? []) },
      finishReason: toGeminiFinishReason(choice.finishReason),
      index: choice.index,
      ...geminiCandidateFieldsFor(metadata, choice.index),
    }));
  }
  if (isJsonObject(promptFeedback)) body.promptFeedback = promptFeedback;
  if (hasUsageCounts(response.usage)) body.usageMetadata = toGeminiUsage(response.usage);
  body.modelVersion = context.model;
  body.responseId = context.requestId;
  return body;
}
