import type { ProtocolMetadata } from '../../core/protocol.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';

/**
 * What of an Anthropic wire block the core has no field for, kept so that the same protocol gets it
 * back unchanged: `cache_control` breakpoints (Claude Code sets them on system blocks, tools and
 * tool results), `citations`, a tool call's `caller`, a tool's `defer_loading`, ...
 */
export function readAnthropicExtraFields(block: JsonObject, mappedKeys: readonly string[]): JsonObject {
  const extra: JsonObject = {};
  // for...in rather than Object.entries: this runs for every block of every Anthropic request.
  for (const key in block) {
    const value = block[key];
    if (key === 'type' || value === undefined || value === null || mappedKeys.includes(key)) continue;
    extra[key] = value;
  }
  return extra;
}

/** The extra fields as protocolMetadata, or nothing when there are none. */
export function toAnthropicMetadata(extra: JsonObject): { protocolMetadata?: ProtocolMetadata } {
  return Object.keys(extra).length > 0 ? { protocolMetadata: { 'anthropic-messages': extra } } : {};
}

/**
 * Always-present metadata: marks a part as Anthropic's own even when it has no extra field, for
 * parts whose meaning depends on the vendor (a thinking signature only Anthropic can verify, a
 * system message Anthropic accepts in the middle of a conversation).
 */
export function markAsAnthropic(extra: JsonObject): { protocolMetadata: ProtocolMetadata } {
  return { protocolMetadata: { 'anthropic-messages': extra } };
}

/** The Anthropic fields a part carries (empty for parts from other protocols). */
export function anthropicExtraFieldsOf(part: { protocolMetadata?: ProtocolMetadata }): JsonObject {
  return part.protocolMetadata?.['anthropic-messages'] ?? {};
}

export function isFromAnthropic(part: { protocolMetadata?: ProtocolMetadata }): boolean {
  return part.protocolMetadata?.['anthropic-messages'] !== undefined;
}

/**
 * Blocks the core cannot represent (server_tool_use, web_search_tool_result, search_result,
 * container_upload, ...), kept under this key with their place: a request keeps them in
 * `extensions['anthropic-messages']`, so an Anthropic upstream gets them back where they were and
 * any other upstream reports them as dropped (warnForeignExtensions); a response keeps them in its
 * protocolMetadata for an Anthropic client.
 */
export const ANTHROPIC_UNMAPPED_BLOCKS_KEY = 'unmapped_content_blocks';

export interface AnthropicUnmappedBlock {
  /** In a request, the index of the core message the block belongs to. */
  message?: number;
  /** Position among the message's parts: the block goes before the part with this index. */
  part: number;
  block: JsonObject;
}

/** The kept blocks of an extension or metadata entry (ignoring anything malformed). */
export function readAnthropicUnmappedBlocks(value: unknown): AnthropicUnmappedBlock[] {
  if (!Array.isArray(value)) return [];
  return value.filter((entry): entry is AnthropicUnmappedBlock => isJsonObject(entry) && typeof entry.part === 'number' && isJsonObject(entry.block));
}

/** The encoded blocks of each core part, with the kept blocks back before the part that followed them. */
export function placeAnthropicUnmappedBlocks(encodedParts: JsonObject[][], kept: readonly AnthropicUnmappedBlock[]): JsonObject[] {
  const blocks: JsonObject[] = [];
  encodedParts.forEach((partBlocks, position) => {
    for (const entry of kept) if (entry.part === position) blocks.push(entry.block);
    blocks.push(...partBlocks);
  });
  for (const entry of kept) if (entry.part >= encodedParts.length) blocks.push(entry.block);
  return blocks;
}
