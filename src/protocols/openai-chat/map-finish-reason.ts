import type { FinishReason, UnifiedFinishReason } from '../../core/finish-reason.js';

export type OpenAIChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/** OpenAI `finish_reason` → core (docs/protocols.md §7.5). Unknown values keep their raw text. */
export function mapOpenAIChatFinishReason(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return { unified: 'stop', raw };
    case 'length':
      return { unified: 'length', raw };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', raw };
    case 'content_filter':
      return { unified: 'content-filter', raw };
    case null:
    case undefined:
      return { unified: 'other' };
    default:
      return { unified: 'other', raw };
  }
}

/** Core → OpenAI `finish_reason`. */
export function toOpenAIChatFinishReason(reason: FinishReason): OpenAIChatFinishReason {
  const unified: UnifiedFinishReason = reason.unified;
  switch (unified) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    case 'error':
    case 'other':
      return 'stop';
    default: {
      const unexpected: never = unified;
      throw new Error(`Unhandled finish reason ${String(unexpected)}`);
    }
  }
}
