import type { StreamPart } from '../../core/stream-part.js';
import type { Usage } from '../../core/usage.js';
import { SSE_KEEP_ALIVE_COMMENT, sseData } from '../../sse/write-sse.js';
import type { ResponseContext, StreamEncoder } from '../protocol-codec.js';
import { toOpenAIChatUsage } from './convert-usage.js';
import { encodeOpenAIError } from './encode-error.js';
import { openAIChatCompletionId } from './encode-response.js';
import { toOpenAIChatFinishReason } from './map-finish-reason.js';

interface ChoiceState {
  started: boolean;
  toolIndexes: Map<string, number>;
}

/**
 * Stream parts → `chat.completion.chunk` records (docs/protocols.md §1.5): data-only lines, the role in
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

  // Every chunk shares its head and tail (with the SSE framing): written once, not again per chunk.
  const head = `data: {"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${context.created},"model":${JSON.stringify(context.model)},"system_fingerprint":null,"choices":`;
  const tail = includeUsage ? ',"usage":null}\n\n' : '}\n\n';
  /** A chunk of one choice, its delta given as JSON text; `finish_reason` null until its last chunk. */
  const deltaChunk = (index: number, delta: string, finishReason: string | null = null): string =>
    `${head}[{"index":${index},"delta":${delta},"logprobs":null,"finish_reason":${finishReason === null ? 'null' : JSON.stringify(finishReason)}}]${tail}`;

  /** The choice's opening chunk (the role, which the SDK wants first), once; '' after that. */
  const open = (index: number): string => {
    let state = choices.get(index);
    if (!state) {
      state = { started: false, toolIndexes: new Map() };
      choices.set(index, state);
    }
    if (state.started) return '';
    state.started = true;
    return deltaChunk(index, '{"role":"assistant","content":"","refusal":null}');
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
    encode(part: StreamPart): string {
      if (done) return '';
      const index = 'choice' in part && part.choice !== undefined ? part.choice : 0;
      switch (part.type) {
        case 'start':
          return open(0);
        case 'text-start':
        case 'text-end':
        case 'reasoning-start':
        case 'reasoning-end':
        case 'tool-input-end':
        case 'tool-call':
        case 'file':
          return open(index);
        case 'text-delta':
          return open(index) + deltaChunk(index, `{"content":${JSON.stringify(part.delta)}}`);
        case 'reasoning-delta':
          return open(index) + deltaChunk(index, `{"reasoning_content":${JSON.stringify(part.delta)}}`);
        case 'tool-input-start': {
          const opening = open(index);
          const call = { index: toolIndex(index, part.id), id: part.id, type: 'function', function: { name: part.toolName, arguments: '' } };
          return opening + deltaChunk(index, JSON.stringify({ tool_calls: [call] }));
        }
        case 'tool-input-delta': {
          const opening = open(index);
          return opening + deltaChunk(index, JSON.stringify({ tool_calls: [{ index: toolIndex(index, part.id), function: { arguments: part.delta } }] }));
        }
        case 'finish': {
          usage = part.usage;
          const opening = open(index);
          return opening + deltaChunk(index, '{}', toOpenAIChatFinishReason(part.finishReason));
        }
        case 'error':
          failed = true;
          done = true;
          // The SDK throws on a data record with a top-level `error` (docs/protocols.md §1.5).
          return sseData(JSON.stringify(encodeOpenAIError(part.error).body));
        default: {
          const unexpected: never = part;
          throw new Error(`Unhandled stream part ${JSON.stringify(unexpected)}`);
        }
      }
    },
    finish(): string {
      if (failed) return '';
      done = true;
      // The usage chunk has no choices, and its usage in place of the tail's null.
      const usageChunk = includeUsage ? `${head}[],"usage":${JSON.stringify(toOpenAIChatUsage(usage ?? { input: {}, output: {} }))}}\n\n` : '';
      return usageChunk + sseData('[DONE]');
    },
    keepAlive: () => SSE_KEEP_ALIVE_COMMENT,
  };
}
