import { describe, expect, it } from 'vitest';
import type { FinishReason, UnifiedFinishReason } from '../../core/finish-reason.js';
import { mapAnthropicStopReason, toAnthropicStopReason, type AnthropicStopReason } from './map-stop-reason.js';

describe('mapAnthropicStopReason', () => {
  // Every value of docs/protocols.md §2.4 (the SDK's StopReason), typed so a new one fails to compile here.
  const table: Record<AnthropicStopReason, FinishReason> = {
    end_turn: { unified: 'stop', raw: 'end_turn' },
    stop_sequence: { unified: 'stop', raw: 'stop_sequence', stopSequence: '###' },
    max_tokens: { unified: 'length', raw: 'max_tokens' },
    model_context_window_exceeded: { unified: 'length', raw: 'model_context_window_exceeded' },
    tool_use: { unified: 'tool-calls', raw: 'tool_use' },
    refusal: { unified: 'content-filter', raw: 'refusal' },
    pause_turn: { unified: 'other', raw: 'pause_turn' },
  };
  it.each(Object.entries(table))('maps %s', (raw, expected) => {
    expect(mapAnthropicStopReason(raw, raw === 'stop_sequence' ? '###' : null)).toEqual(expected);
  });

  it('has no reason while streaming, and keeps unknown values raw', () => {
    expect(mapAnthropicStopReason(null)).toEqual({ unified: 'other' });
    expect(mapAnthropicStopReason(undefined)).toEqual({ unified: 'other' });
    expect(mapAnthropicStopReason('compaction_needed')).toEqual({ unified: 'other', raw: 'compaction_needed' });
  });

  it('gives back the reason it read, so Anthropic-to-Anthropic keeps every value', () => {
    for (const [raw, reason] of Object.entries(table)) expect(toAnthropicStopReason(reason)).toBe(raw);
  });
});

describe('toAnthropicStopReason', () => {
  // Reasons from other protocols (docs/protocols.md §7.5, reverse direction).
  const table: Record<UnifiedFinishReason, AnthropicStopReason> = {
    stop: 'end_turn',
    length: 'max_tokens',
    'tool-calls': 'tool_use',
    'content-filter': 'refusal',
    error: 'end_turn',
    other: 'end_turn',
  };
  it.each(Object.entries(table) as Array<[UnifiedFinishReason, AnthropicStopReason]>)('maps %s', (unified, expected) => {
    expect(toAnthropicStopReason({ unified, raw: 'from-another-protocol' })).toBe(expected);
  });

  it('reports a matched stop sequence as stop_sequence', () => {
    expect(toAnthropicStopReason({ unified: 'stop', raw: 'STOP', stopSequence: 'END' })).toBe('stop_sequence');
  });
});
