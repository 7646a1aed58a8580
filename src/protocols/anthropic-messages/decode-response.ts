import type { AssistantPart } from '../../core/content-part.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { GenerateResponse } from '../../core/generate-response.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';
import { ANTHROPIC_UNMAPPED_BLOCKS_KEY, type AnthropicUnmappedBlock } from './block-metadata.js';
import { convertAnthropicMessagesUsage } from './convert-usage.js';
import { decodeAnthropicAssistantBlock } from './decode-messages.js';
import { mapAnthropicStopReason } from './map-stop-reason.js';

/**
 * Anthropic `Message` JSON → core response (docs/protocols.md §2.4). Blocks the core cannot hold
 * (server tool calls and their results) and `stop_details` / `container` ride in the response's
 * protocolMetadata, so an Anthropic client gets them back; other clients do not see them.
 */
export function decodeAnthropicMessagesResponse(body: unknown): GenerateResponse {
  if (!isJsonObject(body) || !Array.isArray(body.content)) {
    throw new GatewayError('upstream_error', 'The upstream returned a response that is not an Anthropic message.');
  }
  const content: AssistantPart[] = [];
  const unmapped: AnthropicUnmappedBlock[] = [];
  body.content.forEach((block, index) => {
    if (!isJsonObject(block)) return;
    const part = decodeUpstreamBlock(block, index);
    if (part) content.push(part);
    else unmapped.push({ part: content.length, block });
  });
  const metadata: JsonObject = {};
  if (unmapped.length > 0) metadata[ANTHROPIC_UNMAPPED_BLOCKS_KEY] = unmapped;
  if (isJsonObject(body.stop_details)) metadata.stop_details = body.stop_details;
  if (isJsonObject(body.container)) metadata.container = body.container;
  return {
    choices: [{ index: 0, content, finishReason: mapAnthropicStopReason(stringOrNull(body.stop_reason), stringOrNull(body.stop_sequence)) }],
    usage: convertAnthropicMessagesUsage(body.usage),
    ...(typeof body.id === 'string' && { id: body.id }),
    ...(typeof body.model === 'string' && { model: body.model }),
    ...(Object.keys(metadata).length > 0 && { protocolMetadata: { 'anthropic-messages': metadata } }),
  };
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The request-side block decoder, with a malformed block reported as the upstream's fault. */
function decodeUpstreamBlock(block: JsonObject, index: number): AssistantPart | undefined {
  try {
    return decodeAnthropicAssistantBlock(block, `content[${index}]`, new Map());
  } catch (error) {
    if (!GatewayError.is(error)) throw error;
    throw new GatewayError('upstream_error', `The upstream returned a malformed message: ${error.message}`, { cause: error });
  }
}
