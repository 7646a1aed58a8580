import type { FinishReason, UnifiedFinishReason } from '../../core/finish-reason.js';
import { isJsonObject } from '../read-fields.js';

/** The terminal states a gateway writes; `in_progress` only appears before the end. */
export type OpenAIResponsesTerminalStatus = 'completed' | 'incomplete' | 'failed';
export type OpenAIResponsesIncompleteReason = 'max_output_tokens' | 'content_filter';

/**
 * Responses has no finish reason (docs/protocols.md §3.3, §7.5): `status` plus `incomplete_details.reason`,
 * and tool calls show only as `function_call` items in a `completed` response.
 */
export function mapOpenAIResponsesStatus(status: unknown, incompleteDetails: unknown, hasToolCalls: boolean): FinishReason {
  switch (status) {
    case 'completed':
      return { unified: hasToolCalls ? 'tool-calls' : 'stop', raw: 'completed' };
    case 'incomplete': {
      const reason = isJsonObject(incompleteDetails) && typeof incompleteDetails.reason === 'string' ? incompleteDetails.reason : undefined;
      if (reason === 'max_output_tokens') return { unified: 'length', raw: reason };
      if (reason === 'content_filter') return { unified: 'content-filter', raw: reason };
      return { unified: 'other', raw: reason ?? 'incomplete' };
    }
    case 'failed':
      return { unified: 'error', raw: 'failed' };
    default:
      return typeof status === 'string' ? { unified: 'other', raw: status } : { unified: 'other' };
  }
}

/** Core → Responses `status` and `incomplete_details` (docs/protocols.md §7.5, "→ Responses"). */
export function toOpenAIResponsesStatus(reason: FinishReason): {
  status: OpenAIResponsesTerminalStatus;
  incompleteDetails: { reason: OpenAIResponsesIncompleteReason } | null;
} {
  const unified: UnifiedFinishReason = reason.unified;
  switch (unified) {
    case 'length':
      return { status: 'incomplete', incompleteDetails: { reason: 'max_output_tokens' } };
    case 'content-filter':
      return { status: 'incomplete', incompleteDetails: { reason: 'content_filter' } };
    case 'error':
      return { status: 'failed', incompleteDetails: null };
    case 'stop':
    case 'tool-calls':
    case 'other':
      return { status: 'completed', incompleteDetails: null };
    default: {
      const unexpected: never = unified;
      throw new Error(`Unhandled finish reason ${String(unexpected)}`);
    }
  }
}
