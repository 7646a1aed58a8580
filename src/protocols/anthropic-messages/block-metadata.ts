import type { ProtocolMetadata } from '../../core/protocol.js';
import type { JsonObject } from '../read-fields.js';

/**
 * What of an Anthropic wire block the core has no field for, kept so that the same protocol gets it
 * back unchanged: `cache_control` breakpoints (Claude Code sets them on system blocks, tools and
 * tool results), `citations`, a tool call's `caller`, a tool's `defer_loading`, ...
 */
export function readExtraFields(block: JsonObject, mappedKeys: readonly string[]): JsonObject {
  const extra: JsonObject = {};
  for (const [key, value] of Object.entries(block)) {
    if (key === 'type' || mappedKeys.includes(key) || value === undefined || value === null) continue;
    extra[key] = value;
  }
  return extra;
}

/** The extra fields as protocolMetadata, or nothing when there are none. */
export function toBlockMetadata(extra: JsonObject): { protocolMetadata?: ProtocolMetadata } {
  return Object.keys(extra).length > 0 ? { protocolMetadata: { 'anthropic-messages': extra } } : {};
}

/**
 * Always-present metadata: marks a part as Anthropic's own even when it has no extra field, for
 * parts whose meaning depends on the vendor (a thinking signature only Anthropic can verify, a
 * system message Anthropic accepts in the middle of a conversation).
 */
export function toOriginMetadata(extra: JsonObject): { protocolMetadata: ProtocolMetadata } {
  return { protocolMetadata: { 'anthropic-messages': extra } };
}

/** The Anthropic fields a part carries (empty for parts from other protocols). */
export function extraFieldsOf(part: { protocolMetadata?: ProtocolMetadata }): JsonObject {
  return part.protocolMetadata?.['anthropic-messages'] ?? {};
}

export function isFromAnthropic(part: { protocolMetadata?: ProtocolMetadata }): boolean {
  return part.protocolMetadata?.['anthropic-messages'] !== undefined;
}

/**
 * Blocks the core cannot represent (server_tool_use, web_search_tool_result, search_result,
 * container_upload, ...). A request keeps them in `extensions['anthropic-messages']` under this key
 * with their place in the core conversation, so an Anthropic upstream gets them back where they
 * were and any other upstream reports them as dropped (warnForeignExtensions).
 */
export const UNMAPPED_BLOCKS_KEY = 'unmapped_content_blocks';

export interface UnmappedBlock {
  /** Index of the core message the block belongs to. */
  message: number;
  /** Position among that message's parts: the block goes before the part with this index. */
  part: number;
  block: JsonObject;
}
