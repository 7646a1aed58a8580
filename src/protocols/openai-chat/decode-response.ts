import type { AssistantPart } from '../../core/content-part.js';
import type { Choice, GenerateResponse } from '../../core/generate-response.js';
import { GatewayError } from '../../core/gateway-error.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { convertOpenAIChatUsage } from './convert-usage.js';
import { mapOpenAIChatFinishReason } from './map-finish-reason.js';

/** OpenAI Chat completion JSON → core response. */
export function decodeOpenAIChatResponse(body: unknown): GenerateResponse {
  if (!isJsonObject(body) || !Array.isArray(body.choices)) {
    throw new GatewayError('upstream_error', 'The upstream returned a response that is not a chat completion.');
  }
  const choices: Choice[] = body.choices.filter(isJsonObject).map((choice, position) => {
    const message: JsonObject = isJsonObject(choice.message) ? choice.message : {};
    const content: AssistantPart[] = [];
    // Non-standard reasoning fields of OpenAI-compatible servers (DeepSeek, vLLM, OpenRouter).
    const reasoning = message.reasoning_content ?? message.reasoning;
    if (typeof reasoning === 'string' && reasoning) content.push({ type: 'reasoning', text: reasoning });
    if (typeof message.content === 'string' && message.content) content.push({ type: 'text', text: message.content });
    if (typeof message.refusal === 'string' && message.refusal) content.push({ type: 'text', text: message.refusal });
    if (Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) {
        if (!isJsonObject(call) || !isJsonObject(call.function)) continue;
        content.push({
          type: 'tool-call',
          toolCallId: String(call.id ?? ''),
          toolName: String(call.function.name ?? ''),
          input: typeof call.function.arguments === 'string' ? call.function.arguments : JSON.stringify(call.function.arguments ?? {}),
        });
      }
    }
    return {
      index: typeof choice.index === 'number' ? choice.index : position,
      content,
      finishReason: mapOpenAIChatFinishReason(choice.finish_reason as string | null | undefined),
    };
  });
  if (choices.length === 0) choices.push({ index: 0, content: [], finishReason: { unified: 'other' } });
  return {
    choices,
    usage: convertOpenAIChatUsage(body.usage),
    ...(typeof body.id === 'string' && { id: body.id }),
    ...(typeof body.model === 'string' && { model: body.model }),
  };
}
