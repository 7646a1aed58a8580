import type { AssistantPart } from './content-part.js';
import type { FinishReason } from './finish-reason.js';
import type { Choice, GenerateResponse } from './generate-response.js';
import { GatewayError } from './gateway-error.js';
import type { ProtocolMetadata } from './protocol.js';
import type { StreamPart } from './stream-part.js';
import { createEmptyUsage, type Usage } from './usage.js';

/**
 * Collects stream parts into a complete response: for a non-stream client served by a stream
 * upstream, and for recovery records. Feed parts with `add`, read the result with `result()` at any
 * time (a partial response when the stream was cut).
 */
export interface StreamCollector {
  add(part: StreamPart): void;
  result(): GenerateResponse;
  /** The error part the stream ended with, if any. */
  error(): GatewayError | undefined;
}

interface ChoiceState {
  content: AssistantPart[];
  /** The parts still receiving deltas, by the id of their stream parts (one map per kind, so the id itself is the key). */
  open: { text: Map<string, AssistantPart>; reasoning: Map<string, AssistantPart>; tool: Map<string, AssistantPart> };
  finishReason?: FinishReason;
}

type OpenKind = keyof ChoiceState['open'];

export function createStreamCollector(): StreamCollector {
  const choices = new Map<number, ChoiceState>();
  let id: string | undefined;
  let model: string | undefined;
  let usage: Usage = createEmptyUsage();
  let protocolMetadata: ProtocolMetadata | undefined;
  let streamError: GatewayError | undefined;

  const choiceState = (index = 0): ChoiceState => {
    let state = choices.get(index);
    if (!state) {
      state = { content: [], open: { text: new Map(), reasoning: new Map(), tool: new Map() } };
      choices.set(index, state);
    }
    return state;
  };
  const openPart = (index: number | undefined, kind: OpenKind, id: string, part: AssistantPart) => {
    const state = choiceState(index);
    state.content.push(part);
    state.open[kind].set(id, part);
  };
  const mergeMetadata = (part: { protocolMetadata?: ProtocolMetadata }, metadata?: ProtocolMetadata) => {
    if (metadata) part.protocolMetadata = Object.assign({}, part.protocolMetadata, metadata);
  };

  return {
    add(part) {
      switch (part.type) {
        case 'start':
          id = part.id ?? id;
          model = part.model ?? model;
          if (part.usage) usage = part.usage;
          if (part.protocolMetadata) protocolMetadata = Object.assign({}, protocolMetadata, part.protocolMetadata);
          return;
        case 'text-start':
          openPart(part.choice, 'text', part.id, {
            type: 'text',
            text: '',
            ...(part.protocolMetadata && { protocolMetadata: part.protocolMetadata }),
          });
          return;
        case 'text-delta': {
          const state = choiceState(part.choice);
          let open = state.open.text.get(part.id);
          if (!open) {
            open = { type: 'text', text: '' };
            openPart(part.choice, 'text', part.id, open);
          }
          if (open.type === 'text') open.text += part.delta;
          return;
        }
        case 'text-end': {
          const texts = choiceState(part.choice).open.text;
          const open = texts.get(part.id);
          if (open) mergeMetadata(open, part.protocolMetadata);
          texts.delete(part.id);
          return;
        }
        case 'reasoning-start':
          openPart(part.choice, 'reasoning', part.id, {
            type: 'reasoning',
            text: '',
            ...(part.redactedData !== undefined && { redactedData: part.redactedData }),
            ...(part.protocolMetadata && { protocolMetadata: part.protocolMetadata }),
          });
          return;
        case 'reasoning-delta': {
          const state = choiceState(part.choice);
          let open = state.open.reasoning.get(part.id);
          if (!open) {
            open = { type: 'reasoning', text: '' };
            openPart(part.choice, 'reasoning', part.id, open);
          }
          if (open.type === 'reasoning') open.text += part.delta;
          return;
        }
        case 'reasoning-end': {
          const state = choiceState(part.choice);
          const open = state.open.reasoning.get(part.id);
          if (open && open.type === 'reasoning') {
            if (part.signature !== undefined) open.signature = part.signature;
            mergeMetadata(open, part.protocolMetadata);
          }
          state.open.reasoning.delete(part.id);
          return;
        }
        case 'tool-input-start':
          openPart(part.choice, 'tool', part.id, {
            type: 'tool-call',
            toolCallId: part.id,
            toolName: part.toolName,
            input: '',
            ...(part.protocolMetadata && { protocolMetadata: part.protocolMetadata }),
          });
          return;
        case 'tool-input-delta': {
          const open = choiceState(part.choice).open.tool.get(part.id);
          if (open && open.type === 'tool-call') open.input += part.delta;
          return;
        }
        case 'tool-input-end':
          return;
        case 'tool-call': {
          const state = choiceState(part.choice);
          const open = state.open.tool.get(part.toolCallId);
          if (open && open.type === 'tool-call') {
            // The complete call is authoritative over the accumulated deltas.
            open.input = part.input;
            open.toolName = part.toolName;
            mergeMetadata(open, part.protocolMetadata);
            state.open.tool.delete(part.toolCallId);
          } else {
            state.content.push({
              type: 'tool-call',
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              input: part.input,
              ...(part.protocolMetadata && { protocolMetadata: part.protocolMetadata }),
            });
          }
          return;
        }
        case 'file':
          choiceState(part.choice).content.push({
            type: 'file',
            mediaType: part.mediaType,
            data: { type: 'base64', base64: part.base64 },
          });
          return;
        case 'finish':
          choiceState(part.choice).finishReason = part.finishReason;
          usage = part.usage;
          if (part.protocolMetadata) protocolMetadata = Object.assign({}, protocolMetadata, part.protocolMetadata);
          return;
        case 'error':
          streamError = part.error;
          return;
        default: {
          const unexpected: never = part;
          throw new Error(`Unhandled stream part ${JSON.stringify(unexpected)}`);
        }
      }
    },
    result() {
      if (choices.size === 0) choiceState(0);
      const list: Choice[] = [...choices.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, state]) => ({
          index,
          content: state.content,
          finishReason: state.finishReason ?? (streamError ? { unified: 'error' } : { unified: 'other' }),
        }));
      return {
        choices: list,
        usage,
        ...(id !== undefined && { id }),
        ...(model !== undefined && { model }),
        ...(protocolMetadata && { protocolMetadata }),
      };
    },
    error: () => streamError,
  };
}

/** Collects a whole list of parts (tests, non-stream clients of stream upstreams). */
export function collectStreamParts(parts: Iterable<StreamPart>): GenerateResponse {
  const collector = createStreamCollector();
  for (const part of parts) collector.add(part);
  return collector.result();
}
