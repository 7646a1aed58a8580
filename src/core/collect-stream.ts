import type { AssistantPart } from './content-part.js';
import { DeltaText } from './delta-text.js';
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
  /**
   * The parts still receiving deltas, by the id of their stream parts: one map per kind (so the id
   * itself is the key), made when the kind first opens a part.
   */
  text?: Map<string, OpenPart>;
  reasoning?: Map<string, OpenPart>;
  tool?: Map<string, OpenPart>;
  finishReason?: FinishReason;
}

/**
 * A part still receiving deltas. Its text (a tool call's input) is kept in `deltas` and written
 * into the part when the part ends or the response is read.
 */
class OpenPart {
  readonly part: AssistantPart;
  readonly deltas = new DeltaText();

  constructor(part: AssistantPart) {
    this.part = part;
  }

  /** Writes the text so far into the part. */
  settle(): void {
    const part = this.part;
    if (part.type === 'tool-call') part.input = this.deltas.toString();
    else if (part.type === 'text' || part.type === 'reasoning') part.text = this.deltas.toString();
  }
}

type OpenKind = 'text' | 'reasoning' | 'tool';

export function createStreamCollector(): StreamCollector {
  return new PartCollector();
}

/**
 * A class, not a factory of closures: a collector lives as long as its stream, and each object an
 * open stream holds is copied by every young-generation collection (CONTRIBUTING.md, "Code").
 */
class PartCollector implements StreamCollector {
  /** Choice 0, which nearly every stream has alone; the others by index, made on first use. */
  #first: ChoiceState | undefined;
  #others: Map<number, ChoiceState> | undefined;
  #id: string | undefined;
  #model: string | undefined;
  #usage: Usage = createEmptyUsage();
  #protocolMetadata: ProtocolMetadata | undefined;
  #streamError: GatewayError | undefined;

  add(part: StreamPart): void {
    switch (part.type) {
      case 'start':
        this.#id = part.id ?? this.#id;
        this.#model = part.model ?? this.#model;
        if (part.usage) this.#usage = part.usage;
        if (part.protocolMetadata) this.#protocolMetadata = Object.assign({}, this.#protocolMetadata, part.protocolMetadata);
        return;
      case 'text-start':
        this.#openPart(part.choice, 'text', part.id, {
          type: 'text',
          text: '',
          ...(part.protocolMetadata && { protocolMetadata: part.protocolMetadata }),
        });
        return;
      case 'text-delta':
        this.#textPartOf(part.choice, 'text', part.id).deltas.append(part.delta);
        return;
      case 'text-end':
        this.#endPart(part.choice, 'text', part.id, part.protocolMetadata);
        return;
      case 'reasoning-start':
        this.#openPart(part.choice, 'reasoning', part.id, {
          type: 'reasoning',
          text: '',
          ...(part.redactedData !== undefined && { redactedData: part.redactedData }),
          ...(part.protocolMetadata && { protocolMetadata: part.protocolMetadata }),
        });
        return;
      case 'reasoning-delta':
        this.#textPartOf(part.choice, 'reasoning', part.id).deltas.append(part.delta);
        return;
      case 'reasoning-end': {
        const ended = this.#endPart(part.choice, 'reasoning', part.id, part.protocolMetadata);
        if (ended?.type === 'reasoning' && part.signature !== undefined) ended.signature = part.signature;
        return;
      }
      case 'tool-input-start':
        this.#openPart(part.choice, 'tool', part.id, {
          type: 'tool-call',
          toolCallId: part.id,
          toolName: part.toolName,
          input: '',
          ...(part.protocolMetadata && { protocolMetadata: part.protocolMetadata }),
        });
        return;
      case 'tool-input-delta':
        this.#choiceState(part.choice).tool?.get(part.id)?.deltas.append(part.delta);
        return;
      case 'tool-input-end':
        return;
      case 'tool-call': {
        const state = this.#choiceState(part.choice);
        const open = state.tool?.get(part.toolCallId)?.part;
        if (open && open.type === 'tool-call') {
          // The complete call is authoritative over the accumulated deltas.
          open.input = part.input;
          open.toolName = part.toolName;
          mergeMetadata(open, part.protocolMetadata);
          state.tool!.delete(part.toolCallId);
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
        this.#choiceState(part.choice).content.push({
          type: 'file',
          mediaType: part.mediaType,
          data: { type: 'base64', base64: part.base64 },
        });
        return;
      case 'finish':
        this.#choiceState(part.choice).finishReason = part.finishReason;
        this.#usage = part.usage;
        if (part.protocolMetadata) this.#protocolMetadata = Object.assign({}, this.#protocolMetadata, part.protocolMetadata);
        return;
      case 'error':
        this.#streamError = part.error;
        return;
      default: {
        const unexpected: never = part;
        throw new Error(`Unhandled stream part ${JSON.stringify(unexpected)}`);
      }
    }
  }

  result(): GenerateResponse {
    const states: [number, ChoiceState][] = this.#others ? [...this.#others] : [];
    if (this.#first || states.length === 0) states.push([0, this.#choiceState(0)]);
    states.sort(([a], [b]) => a - b);
    // Parts still open (a stream cut short, or read before its end) get their text so far.
    for (const [, state] of states) for (const open of openParts(state)) open.settle();
    const list: Choice[] = states.map(([index, state]) => ({
      index,
      content: state.content,
      finishReason: state.finishReason ?? (this.#streamError ? { unified: 'error' } : { unified: 'other' }),
    }));
    return {
      choices: list,
      usage: this.#usage,
      ...(this.#id !== undefined && { id: this.#id }),
      ...(this.#model !== undefined && { model: this.#model }),
      ...(this.#protocolMetadata && { protocolMetadata: this.#protocolMetadata }),
    };
  }

  error(): GatewayError | undefined {
    return this.#streamError;
  }

  #choiceState(index = 0): ChoiceState {
    if (index === 0) return (this.#first ??= { content: [] });
    let state = this.#others?.get(index);
    if (!state) {
      state = { content: [] };
      (this.#others ??= new Map()).set(index, state);
    }
    return state;
  }

  /** The open text or reasoning part `id`, opened empty when the stream sent no start for it. */
  #textPartOf(index: number | undefined, kind: 'text' | 'reasoning', id: string): OpenPart {
    return this.#choiceState(index)[kind]?.get(id) ?? this.#openPart(index, kind, id, kind === 'text' ? { type: 'text', text: '' } : { type: 'reasoning', text: '' });
  }

  /** Ends the open part `id`: its text written in, the end's metadata merged. Returns the part, if it was open. */
  #endPart(index: number | undefined, kind: OpenKind, id: string, metadata: ProtocolMetadata | undefined): AssistantPart | undefined {
    const parts = this.#choiceState(index)[kind];
    const open = parts?.get(id);
    if (!open) return undefined;
    open.settle();
    mergeMetadata(open.part, metadata);
    parts!.delete(id);
    return open.part;
  }

  #openPart(index: number | undefined, kind: OpenKind, id: string, part: AssistantPart): OpenPart {
    const state = this.#choiceState(index);
    const open = new OpenPart(part);
    state.content.push(part);
    (state[kind] ??= new Map()).set(id, open);
    return open;
  }
}

function* openParts(state: ChoiceState): Iterable<OpenPart> {
  if (state.text) yield* state.text.values();
  if (state.reasoning) yield* state.reasoning.values();
  if (state.tool) yield* state.tool.values();
}

function mergeMetadata(part: { protocolMetadata?: ProtocolMetadata }, metadata?: ProtocolMetadata): void {
  if (metadata) part.protocolMetadata = Object.assign({}, part.protocolMetadata, metadata);
}

/** Collects a whole list of parts (tests, non-stream clients of stream upstreams). */
export function collectStreamParts(parts: Iterable<StreamPart>): GenerateResponse {
  const collector = createStreamCollector();
  for (const part of parts) collector.add(part);
  return collector.result();
}
