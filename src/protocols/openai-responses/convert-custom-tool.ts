import type { FunctionTool, GenerateRequest, Tool } from '../../core/generate-request.js';
import { isJsonObject, type JsonObject } from '../read-fields.js';

/**
 * Codex's freeform tools for upstreams of other protocols. A Responses `custom` tool takes raw text
 * (Codex's `exec` in code mode, `apply_patch`); no other protocol has such tools, so it travels as
 * a function tool with one string argument, `input`, and a call of it comes back to the client as
 * a `custom_tool_call` with that text. The original tool rides in the function tool's metadata.
 */

const INPUT_SCHEMA = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The raw text input of this freeform tool.' } },
  required: ['input'],
  additionalProperties: false,
};

export function decodeOpenAIResponsesCustomTool(raw: JsonObject, name: string): FunctionTool {
  const format = isJsonObject(raw.format) ? raw.format : undefined;
  // The grammar is what tells a model the input's shape; an upstream without grammars reads it here.
  const grammar = format?.type === 'grammar' && typeof format.definition === 'string' ? `\n\nThe input follows this ${String(format.syntax ?? '')} grammar:\n${format.definition}` : '';
  const description = `${typeof raw.description === 'string' ? raw.description : ''}${grammar}`;
  return {
    type: 'function',
    name,
    ...(description && { description }),
    inputSchema: INPUT_SCHEMA,
    protocolMetadata: { 'openai-responses': { customTool: raw } },
  };
}

/** The original wire tool of a custom tool carried as a function tool, else undefined. */
export function customToolOf(tool: Tool): JsonObject | undefined {
  if (tool.type !== 'function') return undefined;
  const carried = tool.protocolMetadata?.['openai-responses']?.customTool;
  return isJsonObject(carried) ? carried : undefined;
}

/** Names of the client's custom tools: calls of these go back as `custom_tool_call` items. */
export function customToolNamesOf(request: Pick<GenerateRequest, 'tools'>): ReadonlySet<string> {
  return new Set(request.tools.filter((tool) => customToolOf(tool) !== undefined).map((tool) => tool.name));
}

/** A custom tool call's text, from the `{input}` arguments the upstream produced (the raw arguments if they are not that shape). */
export function readCustomToolInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (isJsonObject(parsed) && typeof parsed.input === 'string') return parsed.input;
  } catch {
    // Not JSON (yet): an unfinished stream, or a model that wrote the text itself.
  }
  return args;
}
