import type { StreamPart } from '../../core/stream-part.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { createGeminiPartialArgsAssembler, type PartialArgsAssembler } from './assemble-partial-args.js';
import { collectGeminiCandidateFields } from './candidate-fields.js';
import { decodeGeminiOpaquePart, geminiOpaqueKeyOf, synthesizeGeminiToolCallId, withGeminiMetadata } from './decode-part.js';

/** The decoding state of one candidate (one choice) across the records of a stream. */
export interface GeminiCandidateState {
  index: number;
  /** `{choice}` for stream parts of candidates other than the first. */
  tag: { choice?: number };
  responseId?: string;
  open?: { kind: 'text' | 'reasoning'; id: string; thoughtSignature?: string };
  /** Text and reasoning blocks opened so far (for their ids). */
  blocks: number;
  /** Function calls seen so far (for ids stable by position). */
  calls: number;
  hasToolCalls: boolean;
  /** A Vertex call whose arguments are still streaming. */
  pending?: { id: string; toolName: string; metadata: ReturnType<typeof withGeminiMetadata>; assembler: PartialArgsAssembler };
  finishReason?: string;
  fields: JsonObject;
}

export function createGeminiCandidateState(index: number, responseId: string | undefined): GeminiCandidateState {
  return { index, tag: index === 0 ? {} : { choice: index }, responseId, blocks: 0, calls: 0, hasToolCalls: false, fields: {} };
}

/** The new parts of one record for this candidate → stream parts. */
export function decodeGeminiCandidateChunk(state: GeminiCandidateState, candidate: JsonObject, parts: StreamPart[]): void {
  collectGeminiCandidateFields(candidate, state.fields);
  const rawParts = isJsonObject(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
  for (const part of rawParts) {
    if (!isJsonObject(part)) continue;
    const signature = typeof part.thoughtSignature === 'string' ? part.thoughtSignature : undefined;
    if (typeof part.text === 'string') appendText(state, part.thought === true ? 'reasoning' : 'text', part.text, signature, parts);
    else if (isJsonObject(part.functionCall)) decodeFunctionCall(state, part.functionCall, signature, parts);
    else if (isJsonObject(part.inlineData)) {
      closeOpenBlock(state, parts);
      const mediaType = typeof part.inlineData.mimeType === 'string' ? part.inlineData.mimeType : 'application/octet-stream';
      parts.push({ type: 'file', mediaType, base64: typeof part.inlineData.data === 'string' ? part.inlineData.data : '', ...state.tag });
    } else {
      // executableCode, codeExecutionResult, fileData, ...: no stream part of their own; readable
      // text for other protocols, the part itself (in metadata) for Gemini clients.
      const key = part.fileData !== undefined ? 'fileData' : geminiOpaqueKeyOf(part);
      if (key === undefined) continue;
      closeOpenBlock(state, parts);
      const id = `text-${state.index}-${state.blocks++}`;
      const { text, protocolMetadata } = decodeGeminiOpaquePart(part, key);
      parts.push({ type: 'text-start', id, ...state.tag, protocolMetadata });
      parts.push({ type: 'text-delta', id, delta: text, ...state.tag });
      parts.push({ type: 'text-end', id, ...state.tag });
    }
  }
  if (typeof candidate.finishReason === 'string') state.finishReason = candidate.finishReason;
}

/** Ends the candidate's open text or reasoning block and any call still streaming. */
export function closeGeminiCandidate(state: GeminiCandidateState, parts: StreamPart[]): void {
  closeOpenBlock(state, parts);
  completePendingCall(state, parts);
}

/**
 * Text and thought parts extend the open block of their kind. A block carries one signature
 * (Gemini puts it on the first answer part after thinking, or on an empty last part): a second
 * one starts a new block. Empty text without a signature (Gemini's closing records) is nothing.
 */
function appendText(state: GeminiCandidateState, kind: 'text' | 'reasoning', text: string, signature: string | undefined, parts: StreamPart[]): void {
  if (!text && !signature) return;
  completePendingCall(state, parts);
  if (state.open && (state.open.kind !== kind || (signature && state.open.thoughtSignature))) closeOpenBlock(state, parts);
  if (!state.open) {
    const id = `${kind}-${state.index}-${state.blocks++}`;
    state.open = { kind, id };
    parts.push(kind === 'text' ? { type: 'text-start', id, ...state.tag } : { type: 'reasoning-start', id, ...state.tag });
  }
  const id = state.open.id;
  if (text) parts.push(kind === 'text' ? { type: 'text-delta', id, delta: text, ...state.tag } : { type: 'reasoning-delta', id, delta: text, ...state.tag });
  if (signature) state.open.thoughtSignature = signature;
}

function closeOpenBlock(state: GeminiCandidateState, parts: StreamPart[]): void {
  const open = state.open;
  if (!open) return;
  state.open = undefined;
  const metadata = withGeminiMetadata({ thoughtSignature: open.thoughtSignature });
  parts.push(open.kind === 'text' ? { type: 'text-end', id: open.id, ...state.tag, ...metadata } : { type: 'reasoning-end', id: open.id, ...state.tag, ...metadata });
}

/**
 * A whole call (the Developer API sends calls complete, docs/protocols.md §4.5), or a piece of a Vertex
 * call with streamed arguments (see assemble-partial-args.ts), whose arguments are emitted as one
 * delta once complete.
 */
function decodeFunctionCall(state: GeminiCandidateState, call: JsonObject, signature: string | undefined, parts: StreamPart[]): void {
  const name = typeof call.name === 'string' && call.name ? call.name : undefined;
  const streamed = Array.isArray(call.partialArgs) || call.willContinue === true;
  if (name || !streamed) completePendingCall(state, parts);
  if (!name && !state.pending) return;
  closeOpenBlock(state, parts);
  const wireId = typeof call.id === 'string' && call.id ? call.id : undefined;
  if (name) {
    const position = state.calls++;
    const id = wireId ?? synthesizeGeminiToolCallId(state.responseId, state.index, position);
    const metadata = withGeminiMetadata({ functionCallId: wireId, thoughtSignature: signature });
    state.hasToolCalls = true;
    parts.push({ type: 'tool-input-start', id, toolName: name, ...state.tag, ...metadata });
    state.pending = { id, toolName: name, metadata, assembler: createGeminiPartialArgsAssembler() };
    if (isJsonObject(call.args)) Object.assign(state.pending.assembler.args(), call.args);
  }
  if (state.pending && Array.isArray(call.partialArgs)) state.pending.assembler.apply(call.partialArgs);
  if (call.willContinue !== true) completePendingCall(state, parts);
}

function completePendingCall(state: GeminiCandidateState, parts: StreamPart[]): void {
  const pending = state.pending;
  if (!pending) return;
  state.pending = undefined;
  const input = JSON.stringify(pending.assembler.args());
  parts.push({ type: 'tool-input-delta', id: pending.id, delta: input, ...state.tag });
  parts.push({ type: 'tool-input-end', id: pending.id, ...state.tag });
  parts.push({ type: 'tool-call', toolCallId: pending.id, toolName: pending.toolName, input, ...state.tag, ...pending.metadata });
}
