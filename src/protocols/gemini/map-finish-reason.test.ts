import { describe, expect, it } from 'vitest';
import type { FinishReason, UnifiedFinishReason } from '../../core/finish-reason.js';
import { GEMINI_FINISH_REASONS, mapGeminiBlockReason, mapGeminiFinishReason, toGeminiFinishReason, type GeminiFinishReason } from './map-finish-reason.js';

/** docs/protocols.md §7.5, every value of the §4.4 enum. */
const EXPECTED: Record<GeminiFinishReason, UnifiedFinishReason> = {
  FINISH_REASON_UNSPECIFIED: 'other',
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content-filter',
  RECITATION: 'content-filter',
  LANGUAGE: 'other',
  OTHER: 'other',
  BLOCKLIST: 'content-filter',
  PROHIBITED_CONTENT: 'content-filter',
  SPII: 'content-filter',
  MALFORMED_FUNCTION_CALL: 'error',
  IMAGE_SAFETY: 'content-filter',
  UNEXPECTED_TOOL_CALL: 'error',
  TOO_MANY_TOOL_CALLS: 'error',
  IMAGE_PROHIBITED_CONTENT: 'content-filter',
  NO_IMAGE: 'other',
  IMAGE_RECITATION: 'content-filter',
  IMAGE_OTHER: 'other',
  CONTINUATION: 'length',
};

describe('mapGeminiFinishReason', () => {
  it.each(GEMINI_FINISH_REASONS)('%s maps, keeps its raw value and maps back to itself', (raw) => {
    const reason = mapGeminiFinishReason(raw, false);
    expect(reason).toEqual({ unified: EXPECTED[raw], raw });
    expect(toGeminiFinishReason(reason)).toBe(raw);
  });

  it('a STOP with function calls is a tool-calls finish (Gemini has no tool-call reason)', () => {
    expect(mapGeminiFinishReason('STOP', true)).toEqual({ unified: 'tool-calls', raw: 'STOP' });
    expect(mapGeminiFinishReason(undefined, true)).toEqual({ unified: 'tool-calls' });
    expect(mapGeminiFinishReason('MAX_TOKENS', true)).toEqual({ unified: 'length', raw: 'MAX_TOKENS' });
  });

  it('unknown values become other with their raw text; none at all is other', () => {
    expect(mapGeminiFinishReason('SOMETHING_NEW', false)).toEqual({ unified: 'other', raw: 'SOMETHING_NEW' });
    expect(mapGeminiFinishReason(undefined, false)).toEqual({ unified: 'other' });
  });

  it('a blocked prompt is a content filter with the block reason', () => {
    expect(mapGeminiBlockReason('MODEL_ARMOR')).toEqual({ unified: 'content-filter', raw: 'MODEL_ARMOR' });
  });
});

describe('toGeminiFinishReason', () => {
  it.each<[FinishReason, GeminiFinishReason]>([
    [{ unified: 'stop', raw: 'end_turn' }, 'STOP'],
    [{ unified: 'length', raw: 'max_tokens' }, 'MAX_TOKENS'],
    [{ unified: 'tool-calls', raw: 'tool_calls' }, 'STOP'],
    [{ unified: 'tool-calls', raw: 'STOP' }, 'STOP'],
    [{ unified: 'content-filter', raw: 'content_filter' }, 'SAFETY'],
    [{ unified: 'content-filter', raw: 'MODEL_ARMOR' }, 'SAFETY'],
    [{ unified: 'error' }, 'OTHER'],
    [{ unified: 'other' }, 'OTHER'],
    // A Gemini raw value that disagrees with the unified reason is not trusted.
    [{ unified: 'stop', raw: 'SAFETY' }, 'STOP'],
  ])('%j → %s', (reason, expected) => {
    expect(toGeminiFinishReason(reason)).toBe(expected);
  });
});
