import type { ReasoningConfig } from '../../core/generate-request.js';
import type { Warning } from '../../core/warning.js';

/**
 * The reasoning effort of an OpenAI request (Chat's `reasoning_effort`, Responses'
 * `reasoning.effort`, named by `field` in the warnings). OpenAI takes an effort only: a token
 * budget (Anthropic, Gemini) becomes the nearest effort, a budget beside an effort is dropped, and
 * reasoning turned off sends nothing ('none' exists only on the newest models, older ones reject it).
 */
export function encodeOpenAIReasoningEffort(reasoning: ReasoningConfig | undefined, warnings: Warning[], field: 'reasoning_effort' | 'reasoning.effort'): string | undefined {
  if (!reasoning) return undefined;
  if (reasoning.effort) {
    if (reasoning.budgetTokens !== undefined) {
      warnings.push({ type: 'dropped', feature: 'reasoning budget', details: `${reasoning.budgetTokens} tokens not sent: the upstream takes ${field} '${reasoning.effort}' only` });
    }
    return reasoning.effort;
  }
  if (reasoning.enabled === false) {
    warnings.push({ type: 'dropped', feature: 'reasoning disabled', details: `sent without ${field}; the model's default applies` });
    return undefined;
  }
  if (reasoning.budgetTokens !== undefined) {
    const effort = reasoning.budgetTokens <= 2048 ? 'low' : reasoning.budgetTokens <= 16384 ? 'medium' : 'high';
    warnings.push({ type: 'changed', feature: 'reasoning budget', details: `${reasoning.budgetTokens} tokens sent as ${field} '${effort}'` });
    return effort;
  }
  return undefined;
}
