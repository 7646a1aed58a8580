import { textOfParts } from '../../core/content-part.js';
import { invalidRequest } from '../../core/gateway-error.js';
import type { GenerateRequest } from '../../core/generate-request.js';
import type { Warning } from '../../core/warning.js';
import { warnForeignExtensions } from '../foreign-extensions.js';
import type { EncodedRequest, EncodeRequestOptions } from '../protocol-codec.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { encodeOpenAIReasoningEffort } from '../openai-chat/encode-reasoning-effort.js';
import { KEPT_INPUT_ITEMS_KEY } from './decode-request.js';
import { encodeOpenAIResponsesInput } from './encode-input-items.js';
import {
  encodeOpenAIResponsesTextFormat,
  encodeOpenAIResponsesTools,
  encodeOpenAIResponsesToolChoice,
} from './encode-request-options.js';

/** OpenAI rejects `max_output_tokens` below 16 ("integer below minimum value"). */
const MIN_OUTPUT_TOKENS = 16;

/** GenerateRequest → OpenAI Responses request (docs/protocols.md §3.1, §6). */
export function encodeOpenAIResponsesRequest(request: GenerateRequest, options: EncodeRequestOptions): EncodedRequest {
  if (request.n !== undefined && request.n > 1) {
    throw invalidRequest('n', `OpenAI Responses returns one answer per request, so n = ${request.n} cannot be served by this upstream.`);
  }
  const warnings: Warning[] = [];
  const { [KEPT_INPUT_ITEMS_KEY]: keptItems, text: textRest, reasoning: reasoningRest, ...extension } = request.extensions['openai-responses'] ?? {};
  // The gateway is stateless: nothing refers back to a stored response, so none is stored upstream.
  const store = extension.store === true;
  const body: JsonObject = { model: options.model };
  const instructions = textOfParts(request.system, '\n\n');
  if (instructions) body.instructions = instructions;
  body.input = encodeOpenAIResponsesInput(request.messages, keptItems, store, warnings);

  const tools = encodeOpenAIResponsesTools(request.tools, warnings);
  if (tools.length > 0) {
    body.tools = tools;
    if (request.toolChoice) body.tool_choice = encodeOpenAIResponsesToolChoice(request.toolChoice);
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.maxOutputTokens !== undefined) {
    body.max_output_tokens = Math.max(request.maxOutputTokens, MIN_OUTPUT_TOKENS);
    if (request.maxOutputTokens < MIN_OUTPUT_TOKENS) {
      warnings.push({ type: 'changed', feature: 'max_output_tokens', details: `${request.maxOutputTokens} raised to OpenAI's minimum of ${MIN_OUTPUT_TOKENS}` });
    }
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.topK !== undefined) warnings.push({ type: 'dropped', feature: 'top_k', details: 'OpenAI Responses has no top_k' });
  if (request.stopSequences?.length) warnings.push({ type: 'dropped', feature: 'stop_sequences', details: 'OpenAI Responses has no stop sequences' });
  if (request.presencePenalty !== undefined) warnings.push({ type: 'dropped', feature: 'presence_penalty', details: 'OpenAI Responses has no penalties' });
  if (request.frequencyPenalty !== undefined) warnings.push({ type: 'dropped', feature: 'frequency_penalty', details: 'OpenAI Responses has no penalties' });
  if (request.seed !== undefined) warnings.push({ type: 'dropped', feature: 'seed', details: 'OpenAI Responses has no seed' });

  const text: JsonObject = {};
  if (request.responseFormat) text.format = encodeOpenAIResponsesTextFormat(request.responseFormat);
  if (isJsonObject(textRest)) Object.assign(text, textRest);
  if (Object.keys(text).length > 0) body.text = text;
  const effort = encodeOpenAIReasoningEffort(request.reasoning, warnings, 'reasoning.effort');
  const reasoning: JsonObject = {};
  if (effort) reasoning.effort = effort;
  if (request.reasoning?.includeThoughts) reasoning.summary = 'auto';
  if (isJsonObject(reasoningRest)) Object.assign(reasoning, reasoningRest);
  if (Object.keys(reasoning).length > 0) body.reasoning = reasoning;
  // Reasoning survives a stateless turn only as encrypted content; ask for it when reasoning is on.
  // Not otherwise: non-reasoning models reject the include.
  if (effort && effort !== 'none' && !store) body.include = ['reasoning.encrypted_content'];
  if (request.stream) body.stream = true;
  body.store = false;
  if (request.user !== undefined) body.user = request.user;
  if (request.metadata) body.metadata = request.metadata;
  Object.assign(body, extension);
  warnings.push(...warnForeignExtensions(request, 'openai-responses'));
  return { path: '/responses', body, warnings };
}
