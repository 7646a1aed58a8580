import type { FunctionTool, GenerateRequest, ToolChoice } from '../../core/generate-request.js';
import type { Warning } from '../../core/warning.js';
import type { JsonObject } from '../read-fields.js';
import { anthropicExtraFieldsOf } from './block-metadata.js';

/**
 * Core tools → Anthropic `tools` and `tool_choice` (docs/protocols.md §2.3). Server tools of Anthropic
 * pass as they came; another vendor's built-in tools cannot run here and are dropped.
 */
export function encodeAnthropicTools(request: GenerateRequest, warnings: Warning[]): { tools?: JsonObject[]; tool_choice?: JsonObject } {
  const tools: JsonObject[] = [];
  for (const tool of request.tools) {
    if (tool.type === 'function') {
      tools.push({
        name: tool.name,
        ...(tool.description !== undefined && { description: tool.description }),
        input_schema: encodeInputSchema(tool, warnings),
        ...(tool.strict !== undefined && { strict: tool.strict }),
        ...anthropicExtraFieldsOf(tool),
      });
    } else if (tool.protocol === 'anthropic-messages') {
      tools.push(tool.raw);
    } else {
      warnings.push({ type: 'dropped', feature: `tool ${tool.name}`, details: 'a built-in tool of another vendor' });
    }
  }
  if (tools.length === 0) return {};
  if (!request.toolChoice && request.parallelToolCalls !== false) return { tools };
  const toolChoice = encodeToolChoice(request.toolChoice ?? { type: 'auto' });
  // `none` has no parallel switch: no tool is called at all.
  if (request.parallelToolCalls === false && toolChoice.type !== 'none') toolChoice.disable_parallel_tool_use = true;
  return { tools, tool_choice: toolChoice };
}

function encodeToolChoice(choice: ToolChoice): JsonObject {
  switch (choice.type) {
    case 'auto':
    case 'none':
      return { type: choice.type };
    case 'required':
      return { type: 'any' };
    case 'tool':
      return { type: 'tool', name: choice.toolName };
    default: {
      const unexpected: never = choice;
      throw new Error(`Unhandled tool choice ${JSON.stringify(unexpected)}`);
    }
  }
}

/** Anthropic requires `input_schema.type: 'object'` (docs/protocols.md §7.1). */
function encodeInputSchema(tool: FunctionTool, warnings: Warning[]): JsonObject {
  const schema = tool.inputSchema;
  if (schema.type === 'object') return schema;
  if (schema.type === undefined) return { type: 'object', ...schema };
  const details = `Anthropic tools take object schemas only; the '${String(schema.type)}' schema was replaced by an empty one`;
  warnings.push({ type: 'changed', feature: `tool ${tool.name}`, details });
  return { type: 'object', properties: {} };
}
