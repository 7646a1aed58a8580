import type { AssistantPart } from '../core/content-part.js';
import type { GenerateResponse } from '../core/generate-response.js';
import type { StreamPart } from '../core/stream-part.js';

/** What was sent of one content part of a choice. */
interface SentPart {
  /** Characters of its text (a tool call's input) sent so far. */
  sent: number;
  ended: boolean;
}

/**
 * Turns the successive snapshots of a response that is still growing (a drain a retry joined)
 * into stream parts: on the first, everything so far; on each next, only what arrived since. A
 * reasoning part is ended when the next one of its choice appears, the rest when the response is
 * final.
 * Part ids are content positions, as `expandResponseToStreamParts` makes them.
 */
export class ResponseFollower {
  #started = false;
  #choices = new Map<number, SentPart[]>();

  next(response: GenerateResponse, final: boolean): StreamPart[] {
    const parts: StreamPart[] = [];
    if (!this.#started) {
      this.#started = true;
      parts.push(withChoice({ type: 'start', id: response.id, model: response.model }, undefined));
    }
    for (const choice of response.choices) {
      let sent = this.#choices.get(choice.index);
      if (!sent) this.#choices.set(choice.index, (sent = []));
      const tag = choice.index === 0 ? undefined : choice.index;
      choice.content.forEach((part, position) => {
        let state = sent[position];
        if (!state) {
          // A new part ends the reasoning before it: every protocol ends a reasoning part before the
          // next starts, and Anthropic's encoder holds back whatever follows an open thinking
          // block. Text and tool calls stay open until the end: OpenAI interleaves the arguments
          // of parallel tool calls (and text), and what grows after its part ended would be lost.
          for (let before = 0; before < position; before++) if (choice.content[before].type === 'reasoning') closePart(parts, choice.content[before], sent[before], before, tag);
          sent[position] = state = { sent: 0, ended: false };
          openPart(parts, part, position, tag);
        }
        if (state.ended) return;
        const text = textOf(part);
        if (text.length > state.sent) {
          const delta = text.slice(state.sent);
          state.sent = text.length;
          const id = part.type === 'tool-call' ? part.toolCallId : String(position);
          const type = part.type === 'tool-call' ? 'tool-input-delta' : part.type === 'reasoning' ? 'reasoning-delta' : 'text-delta';
          parts.push(tag === undefined ? { type, id, delta } : { type, id, delta, choice: tag });
        }
      });
      if (final) choice.content.forEach((part, position) => closePart(parts, part, sent[position], position, tag));
    }
    if (final) {
      response.choices.forEach((choice, position) => {
        const last = position === response.choices.length - 1;
        const finish: StreamPart = { type: 'finish', finishReason: choice.finishReason, usage: last ? response.usage : { input: {}, output: {} } };
        if (choice.index !== 0) finish.choice = choice.index;
        if (last && response.protocolMetadata) finish.protocolMetadata = response.protocolMetadata;
        parts.push(finish);
      });
    }
    return parts;
  }
}

function textOf(part: AssistantPart): string {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return part.text;
    case 'tool-call':
      return part.input;
    case 'file':
      return '';
    default: {
      const unexpected: never = part;
      throw new Error(`Unhandled content part ${JSON.stringify(unexpected)}`);
    }
  }
}

function openPart(parts: StreamPart[], part: AssistantPart, position: number, choice: number | undefined): void {
  const id = String(position);
  const metadata = part.type === 'file' ? undefined : part.protocolMetadata;
  switch (part.type) {
    case 'text':
      parts.push(withChoice({ type: 'text-start', id, protocolMetadata: metadata }, choice));
      return;
    case 'reasoning':
      parts.push(withChoice({ type: 'reasoning-start', id, redactedData: part.redactedData, protocolMetadata: metadata }, choice));
      return;
    case 'tool-call':
      parts.push(withChoice({ type: 'tool-input-start', id: part.toolCallId, toolName: part.toolName, protocolMetadata: metadata }, choice));
      return;
    case 'file':
      if (part.data.type === 'base64') parts.push(withChoice({ type: 'file', mediaType: part.mediaType, base64: part.data.base64 }, choice));
      return;
    default: {
      const unexpected: never = part;
      throw new Error(`Unhandled content part ${JSON.stringify(unexpected)}`);
    }
  }
}

function closePart(parts: StreamPart[], part: AssistantPart, state: SentPart | undefined, position: number, choice: number | undefined): void {
  if (!state || state.ended) return;
  state.ended = true;
  const id = String(position);
  switch (part.type) {
    case 'text':
      parts.push(withChoice({ type: 'text-end', id, protocolMetadata: part.protocolMetadata }, choice));
      return;
    case 'reasoning':
      parts.push(withChoice({ type: 'reasoning-end', id, signature: part.signature, protocolMetadata: part.protocolMetadata }, choice));
      return;
    case 'tool-call':
      parts.push(withChoice({ type: 'tool-input-end', id: part.toolCallId }, choice));
      parts.push(withChoice({ type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input, protocolMetadata: part.protocolMetadata }, choice));
      return;
    case 'file':
      return;
    default: {
      const unexpected: never = part;
      throw new Error(`Unhandled content part ${JSON.stringify(unexpected)}`);
    }
  }
}

/** The part with its choice (when not the first) and without the members left undefined. */
function withChoice(part: StreamPart, choice: number | undefined): StreamPart {
  const record = part as unknown as Record<string, unknown>;
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  if (choice !== undefined) record.choice = choice;
  return part;
}
