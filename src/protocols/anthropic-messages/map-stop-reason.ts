import type { StopReason } from '@anthropic-ai/sdk/resources/messages';
import type { FinishReason, UnifiedFinishReason } from '../../core/finish-reason.js';

export type AnthropicStopReason = StopReason;

/** Every value of the SDK's `StopReason` (docs/protocols.md §2.4), checked complete by the type below. */
const STOP_REASONS = {
  end_turn: true,
  max_tokens: true,
  stop_sequence: true,
  tool_use: true,
  pause_turn: true,
  refusal: true,
  model_context_window_exceeded: true,
} satisfies Record<StopReason, true>;

export function isAnthropicStopReason(value: unknown): value is AnthropicStopReason {
  return typeof value === 'string' && Object.hasOwn(STOP_REASONS, value);
}

/** Anthropic `stop_reason` (+ the matched `stop_sequence`) → core (docs/protocols.md §7.5). */
export function mapAnthropicStopReason(raw: string | null | undefined, stopSequence?: string | null): FinishReason {
  if (raw === null || raw === undefined) return { unified: 'other' };
  if (!isAnthropicStopReason(raw)) return { unified: 'other', raw };
  switch (raw) {
    case 'end_turn':
      return { unified: 'stop', raw };
    case 'stop_sequence':
      return { unified: 'stop', raw, ...(typeof stopSequence === 'string' && { stopSequence }) };
    case 'max_tokens':
    // The context window filled up: the output was cut short, as with a token limit.
    case 'model_context_window_exceeded':
      return { unified: 'length', raw };
    case 'tool_use':
      return { unified: 'tool-calls', raw };
    case 'refusal':
      return { unified: 'content-filter', raw };
    // A server tool loop paused; the client is expected to continue. No neutral equivalent.
    case 'pause_turn':
      return { unified: 'other', raw };
    default: {
      const unexpected: never = raw;
      throw new Error(`Unhandled stop reason ${String(unexpected)}`);
    }
  }
}

/**
 * Core → Anthropic `stop_reason`. A raw value that is already an Anthropic stop reason is kept
 * (`pause_turn` and `model_context_window_exceeded` survive an Anthropic-to-Anthropic trip); no other
 * protocol uses these words (OpenAI `stop`, Gemini `STOP`, Responses `completed`).
 */
export function toAnthropicStopReason(reason: FinishReason): AnthropicStopReason {
  if (isAnthropicStopReason(reason.raw)) return reason.raw;
  const unified: UnifiedFinishReason = reason.unified;
  switch (unified) {
    case 'stop':
      return reason.stopSequence !== undefined ? 'stop_sequence' : 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool-calls':
      return 'tool_use';
    case 'content-filter':
      return 'refusal';
    case 'error':
    case 'other':
      return 'end_turn';
    default: {
      const unexpected: never = unified;
      throw new Error(`Unhandled finish reason ${String(unexpected)}`);
    }
  }
}
