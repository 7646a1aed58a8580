import type { FinishReason, UnifiedFinishReason } from '../../core/finish-reason.js';

/** Every `finishReason` of `GenerateContentResponse` (docs/protocols.md §4.4, @google/genai `FinishReason`). */
export const GEMINI_FINISH_REASONS = [
  'FINISH_REASON_UNSPECIFIED',
  'STOP',
  'MAX_TOKENS',
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'OTHER',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'MALFORMED_FUNCTION_CALL',
  'IMAGE_SAFETY',
  'UNEXPECTED_TOOL_CALL',
  'TOO_MANY_TOOL_CALLS',
  'IMAGE_PROHIBITED_CONTENT',
  'NO_IMAGE',
  'IMAGE_RECITATION',
  'IMAGE_OTHER',
  'CONTINUATION',
] as const;

export type GeminiFinishReason = (typeof GEMINI_FINISH_REASONS)[number];

function isGeminiFinishReason(value: string): value is GeminiFinishReason {
  return (GEMINI_FINISH_REASONS as readonly string[]).includes(value);
}

/**
 * Gemini `finishReason` → core (docs/protocols.md §7.5). A function call ends with `STOP`, so the caller
 * says whether the candidate holds `functionCall` parts. Unknown values keep their raw text.
 */
export function mapGeminiFinishReason(raw: string | undefined, hasToolCalls: boolean): FinishReason {
  if (raw === undefined) return hasToolCalls ? { unified: 'tool-calls' } : { unified: 'other' };
  if (!isGeminiFinishReason(raw)) return { unified: 'other', raw };
  return { unified: unifiedOf(raw, hasToolCalls), raw };
}

function unifiedOf(reason: GeminiFinishReason, hasToolCalls: boolean): UnifiedFinishReason {
  switch (reason) {
    case 'STOP':
      return hasToolCalls ? 'tool-calls' : 'stop';
    case 'MAX_TOKENS':
    // CONTINUATION: the per-request token limit cut the answer (it could be resumed).
    case 'CONTINUATION':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
      return 'content-filter';
    // The model produced a tool call Gemini refused to return: a failed generation, not a stop.
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
    case 'TOO_MANY_TOOL_CALLS':
      return 'error';
    case 'LANGUAGE':
    case 'OTHER':
    case 'NO_IMAGE':
    case 'IMAGE_OTHER':
    case 'FINISH_REASON_UNSPECIFIED':
      return 'other';
    default: {
      const unexpected: never = reason;
      throw new Error(`Unhandled Gemini finish reason ${String(unexpected)}`);
    }
  }
}

/** A blocked prompt (`promptFeedback.blockReason`, no candidates) ends as a content filter. */
export function mapGeminiBlockReason(blockReason: string): FinishReason {
  return { unified: 'content-filter', raw: blockReason };
}

/**
 * Core → Gemini `finishReason`. A raw Gemini value that means the same thing is kept (so SAFETY
 * stays SAFETY and not the generic filter value); tool calls end with STOP as Gemini's own do.
 */
export function toGeminiFinishReason(reason: FinishReason): GeminiFinishReason {
  const unified: UnifiedFinishReason = reason.unified;
  if (reason.raw !== undefined && isGeminiFinishReason(reason.raw) && unified !== 'tool-calls' && unifiedOf(reason.raw, false) === unified) {
    return reason.raw;
  }
  switch (unified) {
    case 'stop':
    case 'tool-calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content-filter':
      return 'SAFETY';
    case 'error':
    case 'other':
      return 'OTHER';
    default: {
      const unexpected: never = unified;
      throw new Error(`Unhandled finish reason ${String(unexpected)}`);
    }
  }
}
