import type { AssistantPart } from '../../core/content-part.js';
import type { Choice, GenerateResponse } from '../../core/generate-response.js';
import { GatewayError } from '../../core/gateway-error.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { buildGeminiResponseMetadata, collectGeminiCandidateFields } from './candidate-fields.js';
import { convertGeminiUsage } from './convert-usage.js';
import { decodeGeminiModelPart, synthesizeGeminiToolCallId } from './decode-part.js';
import { mapGeminiBlockReason, mapGeminiFinishReason } from './map-finish-reason.js';

/**
 * Gemini `GenerateContentResponse` → core response (docs/protocols.md §4.4). Candidates are choices; a
 * blocked prompt (no candidates, `promptFeedback.blockReason`) is one empty choice ended by the
 * content filter, with the block reason as the raw finish reason.
 */
export function decodeGeminiResponse(body: unknown): GenerateResponse {
  if (!isJsonObject(body) || (body.candidates === undefined && body.promptFeedback === undefined && body.usageMetadata === undefined)) {
    throw new GatewayError('upstream_error', 'The upstream returned a response that is not a Gemini GenerateContentResponse.');
  }
  const responseId = typeof body.responseId === 'string' ? body.responseId : undefined;
  const candidateFields = new Map<number, JsonObject>();
  const candidates = Array.isArray(body.candidates) ? body.candidates.filter(isJsonObject) : [];

  const choices: Choice[] = candidates.map((candidate, position) => {
    const index = typeof candidate.index === 'number' ? candidate.index : position;
    const rawParts = isJsonObject(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
    let callPosition = 0;
    const content: AssistantPart[] = [];
    for (const rawPart of rawParts) {
      if (!isJsonObject(rawPart)) continue;
      const part = decodeGeminiModelPart(rawPart, (wireId) => {
        const callId = synthesizeGeminiToolCallId(responseId, index, callPosition++);
        return wireId ?? callId;
      });
      if (part) content.push(part);
    }
    const fields: JsonObject = {};
    collectGeminiCandidateFields(candidate, fields);
    candidateFields.set(index, fields);
    const hasToolCalls = content.some((part) => part.type === 'tool-call');
    const finishReason = mapGeminiFinishReason(typeof candidate.finishReason === 'string' ? candidate.finishReason : undefined, hasToolCalls);
    return { index, content, finishReason };
  });

  if (choices.length === 0) {
    const blockReason = isJsonObject(body.promptFeedback) ? body.promptFeedback.blockReason : undefined;
    choices.push({ index: 0, content: [], finishReason: typeof blockReason === 'string' ? mapGeminiBlockReason(blockReason) : { unified: 'other' } });
  }
  const metadata = buildGeminiResponseMetadata(candidateFields, body.promptFeedback);
  return {
    choices,
    usage: convertGeminiUsage(body.usageMetadata),
    ...(responseId !== undefined && { id: responseId }),
    ...(typeof body.modelVersion === 'string' && { model: body.modelVersion }),
    ...(metadata && { protocolMetadata: { gemini: metadata } }),
  };
}
