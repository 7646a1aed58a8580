import type { AssistantPart } from '../../core/content-part.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { GenerateResponse } from '../../core/generate-response.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { decodeReasoningItem } from './convert-reasoning-item.js';
import { convertOpenAIResponsesUsage } from './convert-usage.js';
import { decodeOpenAIResponsesFailure } from './decode-error.js';
import { mapOpenAIResponsesStatus } from './map-finish-reason.js';

/** Upstream `Response` JSON → core response (docs/protocols.md §3.3). A failed Response is an error. */
export function decodeOpenAIResponsesResponse(body: unknown): GenerateResponse {
  if (!isJsonObject(body) || !Array.isArray(body.output)) {
    throw new GatewayError('upstream_error', 'The upstream returned a body that is not a Responses Response object.');
  }
  if (body.status === 'failed') throw decodeOpenAIResponsesFailure(body);
  const content = body.output.filter(isJsonObject).flatMap(decodeOpenAIResponsesOutputItem);
  const hasToolCalls = content.some((part) => part.type === 'tool-call');
  return {
    choices: [{ index: 0, content, finishReason: mapOpenAIResponsesStatus(body.status, body.incomplete_details, hasToolCalls) }],
    usage: convertOpenAIResponsesUsage(body.usage),
    ...(typeof body.id === 'string' && { id: body.id }),
    ...(typeof body.model === 'string' && { model: body.model }),
  };
}

/** The metadata a message item gives its text parts: its id and `phase` (commentary / final_answer). */
export function messageMetadata(item: JsonObject): Record<string, unknown> | undefined {
  const metadata: JsonObject = {};
  if (typeof item.id === 'string' && item.id) metadata.itemId = item.id;
  if (typeof item.phase === 'string') metadata.phase = item.phase;
  return Object.keys(metadata).length > 0 ? metadata : undefined;
}

/** The text of a message content part: `output_text` text or `refusal` text (kept as text, never lost). */
export function contentText(part: JsonObject): string | undefined {
  if (part.type === 'output_text' && typeof part.text === 'string') return part.text;
  if (part.type === 'refusal' && typeof part.refusal === 'string') return part.refusal;
  return undefined;
}

/**
 * One output item → core parts. Built-in tool calls the vendor ran itself (web_search_call,
 * file_search_call, code_interpreter_call, mcp_call, ...) have no core form: their outcome is in the
 * message that follows, so they are skipped on purpose.
 */
export function decodeOpenAIResponsesOutputItem(item: JsonObject): AssistantPart[] {
  switch (item.type) {
    case 'message': {
      const metadata = messageMetadata(item);
      const parts = Array.isArray(item.content) ? item.content.filter(isJsonObject) : [];
      return parts.flatMap((part): AssistantPart[] => {
        const text = contentText(part);
        return text === undefined ? [] : [{ type: 'text', text, ...(metadata && { protocolMetadata: { 'openai-responses': { ...metadata } } }) }];
      });
    }
    case 'function_call':
      return [
        {
          type: 'tool-call',
          toolCallId: String(item.call_id ?? ''),
          toolName: String(item.name ?? ''),
          input: typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {}),
          ...(typeof item.id === 'string' && item.id && { protocolMetadata: { 'openai-responses': { itemId: item.id } } }),
        },
      ];
    case 'reasoning':
      return [decodeReasoningItem(item)];
    case 'image_generation_call': {
      const image = decodeImageItem(item);
      return image ? [{ type: 'file', mediaType: image.mediaType, data: { type: 'base64', base64: image.base64 } }] : [];
    }
    default:
      return [];
  }
}

/** A finished image_generation_call's image; its `output_format` (png, webp, jpeg) names the type. */
export function decodeImageItem(item: JsonObject): { mediaType: string; base64: string } | undefined {
  if (typeof item.result !== 'string' || !item.result) return undefined;
  const format = typeof item.output_format === 'string' && item.output_format ? item.output_format : 'png';
  return { mediaType: `image/${format}`, base64: item.result };
}
