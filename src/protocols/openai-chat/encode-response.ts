import type { GenerateResponse } from '../../core/generate-response.js';
import type { ResponseContext } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';
import { toOpenAIChatUsage } from './convert-usage.js';
import { toOpenAIChatFinishReason } from './map-finish-reason.js';

export function openAIChatCompletionId(context: ResponseContext): string {
  return `chatcmpl-${context.requestId}`;
}

/** Core response → OpenAI `chat.completion` object (docs/protocols.md §1.4). */
export function encodeOpenAIChatResponse(response: GenerateResponse, context: ResponseContext): JsonObject {
  return {
    id: openAIChatCompletionId(context),
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    choices: response.choices.map((choice) => {
      let text: string | null = null;
      let reasoning: string | undefined;
      const toolCalls: JsonObject[] = [];
      for (const part of choice.content) {
        if (part.type === 'text') text = (text ?? '') + part.text;
        else if (part.type === 'reasoning') reasoning = (reasoning ?? '') + part.text;
        else if (part.type === 'tool-call') {
          toolCalls.push({ id: part.toolCallId, type: 'function', function: { name: part.toolName, arguments: part.input } });
        }
      }
      const message: JsonObject = { role: 'assistant', content: text, refusal: null, annotations: [] };
      // Reasoning text has no official Chat field; compatible clients read `reasoning_content`.
      if (reasoning) message.reasoning_content = reasoning;
      if (toolCalls.length > 0) message.tool_calls = toolCalls;
      return { index: choice.index, message, logprobs: null, finish_reason: toOpenAIChatFinishReason(choice.finishReason) };
    }),
    usage: toOpenAIChatUsage(response.usage),
    service_tier: 'default',
    system_fingerprint: null,
  };
}
