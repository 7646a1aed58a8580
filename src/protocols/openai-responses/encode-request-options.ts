import type { ResponseFormat, Tool, ToolChoice } from '../../core/generate-request.js';
import type { Warning } from '../../core/warning.js';
import type { JsonObject } from '../read-fields.js';
import { customToolOf } from './convert-custom-tool.js';

/**
 * Request options in Responses wire form. Shared by encodeRequest (to an upstream) and
 * encodeResponse (the Response echoes the effective tools, tool_choice and text format).
 */

/** Function tools flat; the vendor's own tools as the client sent them; other vendors' tools dropped. */
export function encodeOpenAIResponsesTools(tools: readonly Tool[], warnings?: Warning[]): JsonObject[] {
  const wire: JsonObject[] = [];
  for (const tool of tools) {
    const custom = customToolOf(tool);
    if (custom) {
      wire.push(custom);
    } else if (tool.type === 'function') {
      wire.push({
        type: 'function',
        name: tool.name,
        description: tool.description ?? null,
        parameters: tool.inputSchema,
        // Responses makes function tools strict unless told otherwise, and strict mode rejects the
        // schemas most clients write (optional properties, no additionalProperties: false).
        strict: tool.strict ?? false,
        ...tool.protocolMetadata?.['openai-responses'],
      });
    } else if (tool.protocol === 'openai-responses') {
      wire.push(tool.raw);
    } else {
      warnings?.push({ type: 'dropped', feature: `tool ${tool.name}`, details: 'a built-in tool of another vendor' });
    }
  }
  return wire;
}

export function encodeOpenAIResponsesToolChoice(choice: ToolChoice): string | JsonObject {
  return choice.type === 'tool' ? { type: 'function', name: choice.toolName } : choice.type;
}

/** `text.format`: json_schema is flat (name, schema, strict), unlike Chat's `response_format`. */
export function encodeOpenAIResponsesTextFormat(format: ResponseFormat | undefined): JsonObject {
  if (!format || format.type === 'text') return { type: 'text' };
  if (!format.schema) return { type: 'json_object' };
  return {
    type: 'json_schema',
    name: format.name ?? 'response',
    schema: format.schema,
    ...(format.description !== undefined && { description: format.description }),
    ...(format.strict !== undefined && { strict: format.strict }),
  };
}

