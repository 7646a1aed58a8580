import type { GatewayError } from './gateway-error.js';
import type { FinishReason } from './finish-reason.js';
import type { ProtocolMetadata } from './protocol.js';
import type { Usage } from './usage.js';

/**
 * The parts of a streamed response, from the first decoder to the last encoder. Text, reasoning and
 * tool input come as start / delta / end with an id; a complete `tool-call` follows each tool
 * input's end, so encoders that stream arguments use the `tool-input-*` parts and encoders that send
 * whole calls (Gemini) use `tool-call`. `choice` is the choice index when a request asked for n > 1
 * (absent means 0).
 */
export type StreamPart =
  | {
      type: 'start';
      /** The upstream's response id and model, when it says. */
      id?: string;
      model?: string;
      /** Usage known at the start (Anthropic reports input tokens in `message_start`). */
      usage?: Usage;
      protocolMetadata?: ProtocolMetadata;
    }
  | { type: 'text-start'; id: string; choice?: number; protocolMetadata?: ProtocolMetadata }
  | { type: 'text-delta'; id: string; delta: string; choice?: number }
  | { type: 'text-end'; id: string; choice?: number; protocolMetadata?: ProtocolMetadata }
  | {
      type: 'reasoning-start';
      id: string;
      choice?: number;
      /** Set for an opaque redacted block, which has no deltas. */
      redactedData?: string;
      protocolMetadata?: ProtocolMetadata;
    }
  | { type: 'reasoning-delta'; id: string; delta: string; choice?: number }
  | {
      type: 'reasoning-end';
      id: string;
      choice?: number;
      signature?: string;
      protocolMetadata?: ProtocolMetadata;
    }
  | { type: 'tool-input-start'; id: string; toolName: string; choice?: number; protocolMetadata?: ProtocolMetadata }
  | { type: 'tool-input-delta'; id: string; delta: string; choice?: number }
  | { type: 'tool-input-end'; id: string; choice?: number }
  | {
      type: 'tool-call';
      toolCallId: string;
      toolName: string;
      input: string;
      choice?: number;
      protocolMetadata?: ProtocolMetadata;
    }
  | { type: 'file'; mediaType: string; base64: string; choice?: number }
  | {
      type: 'finish';
      finishReason: FinishReason;
      /** Usage of the whole response so far; the last `finish` of a stream carries the final total. */
      usage: Usage;
      choice?: number;
      protocolMetadata?: ProtocolMetadata;
    }
  | { type: 'error'; error: GatewayError };
