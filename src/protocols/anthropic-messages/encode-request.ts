import { invalidRequest } from '../../core/gateway-error.js';
import type { GenerateRequest } from '../../core/generate-request.js';
import type { Warning } from '../../core/warning.js';
import { warnForeignExtensions } from '../foreign-extensions.js';
import type { EncodedRequest, EncodeRequestOptions } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';
import { readAnthropicUnmappedBlocks, ANTHROPIC_UNMAPPED_BLOCKS_KEY } from './block-metadata.js';
import { encodeAnthropicMessages } from './encode-messages.js';
import { encodeAnthropicTools } from './encode-tools.js';

/**
 * Anthropic requires `max_tokens`; this is sent when the client gave no limit. 8192 is an output
 * size every current Claude model accepts (older ones stop there), so the request is valid for any
 * model while long answers still fit.
 */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

/** The smallest `thinking.budget_tokens` the API accepts. */
const MIN_THINKING_BUDGET = 1024;

/**
 * GenerateRequest → Anthropic Messages request (docs/protocols.md §2.1). Authentication and
 * `anthropic-version` are the provider layer's: no headers here.
 */
export function encodeAnthropicMessagesRequest(request: GenerateRequest, options: EncodeRequestOptions): EncodedRequest {
  if (request.n !== undefined && request.n > 1) {
    throw invalidRequest('n', `Invalid 'n': ${request.n}. This model answers through Anthropic Messages, which returns one choice per request.`);
  }
  const warnings: Warning[] = [];
  const { [ANTHROPIC_UNMAPPED_BLOCKS_KEY]: unmapped, ...extension } = request.extensions['anthropic-messages'] ?? {};
  const { system, messages } = encodeAnthropicMessages(request, readAnthropicUnmappedBlocks(unmapped), warnings);

  const body: JsonObject = { model: options.model, max_tokens: request.maxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS, messages };
  if (system.length > 0) body.system = system;
  Object.assign(body, encodeAnthropicTools(request, warnings));
  if (request.stopSequences?.length) body.stop_sequences = request.stopSequences;
  if (request.temperature !== undefined) {
    const temperature = Math.min(1, Math.max(0, request.temperature));
    if (temperature !== request.temperature) {
      warnings.push({ type: 'changed', feature: 'temperature', details: `${request.temperature} is outside Anthropic's range 0 to 1; sent as ${temperature}` });
    }
    body.temperature = temperature;
  }
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.topK !== undefined) body.top_k = request.topK;
  if (request.presencePenalty !== undefined) warnings.push({ type: 'dropped', feature: 'presence_penalty', details: 'Anthropic has no equivalent' });
  if (request.frequencyPenalty !== undefined) warnings.push({ type: 'dropped', feature: 'frequency_penalty', details: 'Anthropic has no equivalent' });
  if (request.seed !== undefined) warnings.push({ type: 'dropped', feature: 'seed', details: 'Anthropic has no equivalent' });

  const outputConfig: JsonObject = {};
  const format = request.responseFormat;
  if (format?.type === 'json') {
    if (format.schema) outputConfig.format = { type: 'json_schema', schema: format.schema };
    else warnings.push({ type: 'unsupported', feature: 'response_format', details: 'Anthropic has no JSON mode without a schema' });
  }
  encodeReasoning(request, body, outputConfig, warnings);
  resolveThinkingConflicts(body, warnings);
  if (Object.keys(outputConfig).length > 0) body.output_config = outputConfig;

  if (request.user !== undefined) body.metadata = { user_id: request.user };
  if (request.metadata) warnings.push({ type: 'dropped', feature: 'metadata', details: 'Anthropic metadata holds only a user id' });
  if (request.stream) body.stream = true;

  // Fields only Anthropic knows (context_management, container, a thinking `display`, ...) win.
  Object.assign(body, extension);
  warnings.push(...warnForeignExtensions(request, 'anthropic-messages'));
  return { path: '/v1/messages', body, warnings };
}

/**
 * Reasoning (docs/protocols.md §7.3): a budget → `thinking: enabled` (older models); an effort →
 * `thinking: adaptive` + `output_config.effort` (newest models); off → `thinking: disabled`.
 */
function encodeReasoning(request: GenerateRequest, body: JsonObject, outputConfig: JsonObject, warnings: Warning[]): void {
  const reasoning = request.reasoning;
  if (!reasoning) return;
  if (reasoning.enabled === false || reasoning.effort === 'none') {
    body.thinking = { type: 'disabled' };
    return;
  }
  if (reasoning.budgetTokens !== undefined) {
    const budget = Math.max(MIN_THINKING_BUDGET, reasoning.budgetTokens);
    if (budget !== reasoning.budgetTokens) {
      const details = `raised from ${reasoning.budgetTokens} to Anthropic's minimum of ${budget} tokens`;
      warnings.push({ type: 'changed', feature: 'reasoning budget', details });
    }
    body.thinking = { type: 'enabled', budget_tokens: budget };
    // The budget counts toward max_tokens and must stay below it: room for the answer on top.
    const maxTokens = body.max_tokens as number;
    if (maxTokens <= budget) {
      body.max_tokens = budget + maxTokens;
      if (request.maxOutputTokens !== undefined) {
        warnings.push({ type: 'changed', feature: 'max_tokens', details: `raised to ${budget + maxTokens} to hold the reasoning budget of ${budget} tokens` });
      }
    }
  }
  if (reasoning.effort !== undefined) {
    body.thinking ??= { type: 'adaptive' };
    // Anthropic's efforts are low, medium, high, xhigh and max.
    if (reasoning.effort === 'minimal') warnings.push({ type: 'changed', feature: 'reasoning effort', details: "'minimal' sent as 'low'" });
    outputConfig.effort = reasoning.effort === 'minimal' ? 'low' : reasoning.effort;
  } else if (reasoning.enabled === true) {
    body.thinking ??= { type: 'adaptive' };
  }
}

/**
 * With thinking on, Anthropic rejects a forced tool call and changed sampling (docs/protocols.md §7.3);
 * clients of other protocols send them together. The tool choice the client insisted on wins over
 * reasoning; reasoning wins over sampling.
 *
 * Mid tool loop, it also rejects a last assistant turn that does not start with its thinking
 * block. Clients of other protocols often cannot send one back: Gemini CLI drops thought parts
 * from its history, and another vendor's reasoning is never replayed. Thinking is then off for
 * that request (the next turns, with a fresh thinking block, think again).
 */
function resolveThinkingConflicts(body: JsonObject, warnings: Warning[]): void {
  const thinking = body.thinking as JsonObject | undefined;
  if (!thinking || thinking.type === 'disabled') return;
  const toolChoice = body.tool_choice as JsonObject | undefined;
  if (toolChoice?.type === 'any' || toolChoice?.type === 'tool') {
    delete body.thinking;
    warnings.push({ type: 'dropped', feature: 'reasoning', details: 'Anthropic cannot think while a tool call is forced' });
    return;
  }
  // Mid tool loop: the conversation ends with the results of the last assistant turn's calls.
  const messages = body.messages as JsonObject[];
  const [lastAssistant, results] = messages.slice(-2);
  const blocks = (message: JsonObject | undefined) => (Array.isArray(message?.content) ? (message.content as JsonObject[]) : []);
  const midToolLoop = lastAssistant?.role === 'assistant' && blocks(results).length > 0 && blocks(results).every((block) => block.type === 'tool_result');
  const first = blocks(lastAssistant)[0];
  if (midToolLoop && first?.type !== 'thinking' && first?.type !== 'redacted_thinking') {
    delete body.thinking;
    warnings.push({ type: 'dropped', feature: 'reasoning', details: 'the last assistant turn with tool calls came back without its thinking block, which Anthropic requires while thinking' });
    return;
  }
  if (body.temperature !== undefined && body.temperature !== 1) {
    delete body.temperature;
    warnings.push({ type: 'dropped', feature: 'temperature', details: 'Anthropic takes no temperature other than 1 while thinking' });
  }
  if (body.top_k !== undefined) {
    delete body.top_k;
    warnings.push({ type: 'dropped', feature: 'top_k', details: 'Anthropic takes no top_k while thinking' });
  }
}
