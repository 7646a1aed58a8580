import { textOfParts } from '../../core/content-part.js';
import type { GenerateResponse } from '../../core/generate-response.js';
import type { Usage } from '../../core/usage.js';
import type { ResponseContext } from '../protocol-codec.js';
import type { JsonObject } from '../read-fields.js';
import { customToolNamesOf } from './convert-custom-tool.js';
import { ownMetadata } from './convert-reasoning-item.js';
import { toOpenAIResponsesUsage } from './convert-usage.js';
import { encodeOpenAIResponsesTextFormat, encodeOpenAIResponsesToolChoice, encodeOpenAIResponsesTools } from './encode-request-options.js';
import { encodeOpenAIResponsesOutput } from './encode-output-items.js';
import { toOpenAIResponsesStatus, type OpenAIResponsesIncompleteReason } from './map-finish-reason.js';

export function openAIResponsesId(context: ResponseContext): string {
  return `resp_${context.requestId}`;
}

/** Where a Response stands: its status, what it has produced so far, and why it stopped. */
export interface ResponseOutcome {
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
  output: JsonObject[];
  usage: Usage | null;
  incompleteDetails?: { reason: OpenAIResponsesIncompleteReason } | null;
  error?: { code: string; message: string } | null;
}

/**
 * The full Response object (docs/protocols.md §3.3), for encodeResponse and for every `response` the
 * stream carries. Request fields are echoed with their effective values, as OpenAI does.
 */
export function createOpenAIResponsesObject(context: ResponseContext, outcome: ResponseOutcome): JsonObject {
  const request = context.request;
  const extension = request.extensions['openai-responses'] ?? {};
  const echo = (key: string, fallback: unknown) => extension[key] ?? fallback;
  const textRest = (extension.text ?? {}) as JsonObject;
  const instructionParts = request.system.filter((part) => ownMetadata(part).source === 'instructions');
  return {
    id: openAIResponsesId(context),
    object: 'response',
    created_at: context.created,
    status: outcome.status,
    background: false,
    billing: { payer: 'developer' },
    // No clock in a codec: a response the gateway completes is stamped with its creation time.
    completed_at: outcome.status === 'completed' ? context.created : null,
    error: outcome.error ?? null,
    incomplete_details: outcome.incompleteDetails ?? null,
    instructions: instructionParts.length > 0 ? textOfParts(instructionParts) : null,
    max_output_tokens: request.maxOutputTokens ?? null,
    max_tool_calls: echo('max_tool_calls', null),
    model: context.model,
    output: outcome.output,
    parallel_tool_calls: request.parallelToolCalls ?? true,
    previous_response_id: null,
    prompt_cache_key: echo('prompt_cache_key', null),
    prompt_cache_retention: echo('prompt_cache_retention', null),
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.includeThoughts ? 'auto' : null },
    safety_identifier: request.user ?? null,
    service_tier: 'default',
    // Nothing is kept: a later previous_response_id could not find this response.
    store: false,
    temperature: request.temperature ?? 1,
    text: { format: encodeOpenAIResponsesTextFormat(request.responseFormat), verbosity: textRest.verbosity ?? 'medium' },
    tool_choice: request.toolChoice ? encodeOpenAIResponsesToolChoice(request.toolChoice) : echo('tool_choice', 'auto'),
    tools: encodeOpenAIResponsesTools(request.tools),
    top_logprobs: echo('top_logprobs', 0),
    top_p: request.topP ?? 1,
    truncation: echo('truncation', 'disabled'),
    usage: outcome.usage ? toOpenAIResponsesUsage(outcome.usage) : null,
    user: request.user ?? null,
    metadata: request.metadata ?? {},
  };
}

/** Core response → a Responses `Response` (choice 0: Responses has no `n`). */
export function encodeOpenAIResponsesResponse(response: GenerateResponse, context: ResponseContext): JsonObject {
  const choice = response.choices.find((entry) => entry.index === 0) ?? response.choices[0];
  const { status, incompleteDetails } = toOpenAIResponsesStatus(choice?.finishReason ?? { unified: 'other' });
  return createOpenAIResponsesObject(context, {
    status,
    output: encodeOpenAIResponsesOutput(choice?.content ?? [], context.requestId, customToolNamesOf(context.request)),
    usage: response.usage,
    incompleteDetails,
    error: status === 'failed' ? { code: 'server_error', message: 'The upstream failed before the response was complete.' } : null,
  });
}
