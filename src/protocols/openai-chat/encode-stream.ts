import type { StreamPart } from '../../core/stream-part.js';
import type { Usage } from '../../core/usage.js';
import type { OutboundChunk } from '../../sse/sse-event.js';
import { SSE_KEEP_ALIVE_COMMENT } from '../../sse/write-sse.js';
import type { ResponseContext, StreamEncoder } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';
import { toOpenAIChatUsage, type OpenAIChatUsage } from './convert-usage.js';
import { encodeOpenAIError } from './encode-error.js';
import { openAIChatCompletionId } from './encode-response.js';
import { toOpenAIChatFinishReason } from './map-finish-reason.js';

interface ChoiceState {
  started: boolean;
  toolIndexes: Map<string, number>;
}

/**
 * Stream parts → `chat.completion.chunk` records (PROTOCOLS.md §1.5): data-only lines, the role in
 * each choice's first delta, every tool call opened with id, type, name and empty arguments (the
 * SDK's `ChatCompletionStream` demands them), a `finish_reason` per choice, the usage chunk when
 * the client asked for it, then `[DONE]`.
 */
export function createOpenAIChatStreamEncoder(context: ResponseContext): StreamEncoder {
  const includeUsage = context.request.extensions['openai-chat']?.include_usage === true;
  const id = openAIChatCompletionId(context);
  const choices = new Map<number, ChoiceState>();
  let usage: Usage | undefined;
  let failed = false;
  let done = false;

  // Every chunk shares its head: written once, not stringified again for each of them.
  const head = `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${context.created},"model":${JSON.stringify(context.model)},"system_fingerprint":null,"choices":`;
  const tail = includeUsage ? ',"usage":null}' : '}';
  const chunk = (choiceList: JsonObject[], usage?: OpenAIChatUsage): OutboundChunk => ({
    data: head + JSON.stringify(choiceList) + (usage ? `,"usage":${JSON.stringify(usage)}}` : tail),
  });

  const delta = (index: number, body: JsonObject): OutboundChunk[] => {
    const out: OutboundChunk[] = [];
    let state = choices.get(index);
    if (!state) {
      state = { started: false, toolIndexes: new Map() };
      choices.set(index, state);
    }
    if (!state.started) {
      state.started = true;
      out.push(chunk([{ index, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }]));
    }
    if (Object.keys(body).length > 0) out.push(chunk([{ index, delta: body, logprobs: null, finish_reason: null }]));
    return out;
  };

  const toolIndex = (index: number, toolId: string): number => {
    const state = choices.get(index)!;
    let position = state.toolIndexes.get(toolId);
    if (position === undefined) {
      position = state.toolIndexes.size;
      state.toolIndexes.set(toolId, position);
    }
    return position;
  };

  return {
    encode(part: StreamPart): OutboundChunk[] {
      if (done) return [];
      const index = 'choice' in part && part.choice !== undefined ? part.choice : 0;
      switch (part.type) {
        case 'start':
          return delta(0, {});
        case 'text-start':
        case 'text-end':
        case 'reasoning-end':
        case 'tool-input-end':
        case 'tool-call':
        case 'file':
          return delta(index, {});
        case 'reasoning-start':
          return delta(index, {});
        case 'text-delta':
          return delta(index, { content: part.delta });
        case 'reasoning-delta':
          return delta(index, { reasoning_content: part.delta });
        case 'tool-input-start': {
          const out = delta(index, {});
          const position = toolIndex(index, part.id);
          out.push(
            chunk([
              {
                index,
                delta: { tool_calls: [{ index: position, id: part.id, type: 'function', function: { name: part.toolName, arguments: '' } }] },
                logprobs: null,
                finish_reason: null,
              },
            ]),
          );
          return out;
        }
        case 'tool-input-delta': {
          const out = delta(index, {});
          out.push(
            chunk([
              { index, delta: { tool_calls: [{ index: toolIndex(index, part.id), function: { arguments: part.delta } }] }, logprobs: null, finish_reason: null },
            ]),
          );
          return out;
        }
        case 'finish': {
          usage = part.usage;
          const out = delta(index, {});
          out.push(chunk([{ index, delta: {}, logprobs: null, finish_reason: toOpenAIChatFinishReason(part.finishReason) }]));
          return out;
        }
        case 'error':
          failed = true;
          done = true;
          // The SDK throws on a data record with a top-level `error` (PROTOCOLS.md §1.5).
          return [{ data: JSON.stringify(encodeOpenAIError(part.error).body) }];
        default: {
          const unexpected: never = part;
          throw new Error(`Unhandled stream part ${JSON.stringify(unexpected)}`);
        }
      }
    },
    finish(): OutboundChunk[] {
      if (failed) return [];
      done = true;
      const out: OutboundChunk[] = [];
      if (includeUsage) out.push(chunk([], toOpenAIChatUsage(usage ?? { input: {}, output: {} })));
      out.push({ data: '[DONE]' });
      return out;
    },
    keepAlive: () => [{ raw: SSE_KEEP_ALIVE_COMMENT }],
  };
}
