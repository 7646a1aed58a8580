import { invalidRequest } from '../../core/gateway-error.js';
import type { Tool, ToolChoice } from '../../core/generate-request.js';
import {
  readArray,
  readBoolean,
  readEnum,
  readObject,
  readString,
  requireNonEmptyString,
  requireObject,
  type JsonObject,
} from '../read-fields.js';
import { readAnthropicExtraFields, toAnthropicMetadata } from './block-metadata.js';

/**
 * `tools` (docs/protocols.md §2.3). A custom tool has no `type` (or `custom`); anything else is a server
 * tool (web_search_20250305, bash_20250124, text_editor_..., code_execution_...) that only Anthropic
 * runs, kept whole as a ProviderTool. A custom tool's cache_control, defer_loading,
 * eager_input_streaming, input_examples, ... ride in its metadata.
 */
export function decodeAnthropicTools(body: JsonObject): Tool[] {
  const rawTools = readArray(body, 'tools') ?? [];
  return rawTools.map((rawTool, index): Tool => {
    const param = `tools[${index}]`;
    const tool = requireObject(rawTool, param);
    const type = readString(tool, 'type', `${param}.type`);
    if (type !== undefined && type !== 'custom') {
      return { type: 'provider', protocol: 'anthropic-messages', name: readString(tool, 'name', `${param}.name`) ?? type, raw: tool };
    }
    const name = requireNonEmptyString(tool, 'name', `${param}.name`);
    const inputSchema = readObject(tool, 'input_schema', `${param}.input_schema`);
    if (!inputSchema) throw invalidRequest(`${param}.input_schema`, `Missing required parameter: '${param}.input_schema'.`);
    const description = readString(tool, 'description', `${param}.description`);
    const strict = readBoolean(tool, 'strict', `${param}.strict`);
    return {
      type: 'function',
      name,
      inputSchema,
      ...(description !== undefined && { description }),
      ...(strict !== undefined && { strict }),
      ...toAnthropicMetadata(readAnthropicExtraFields(tool, ['name', 'input_schema', 'description', 'strict'])),
    };
  });
}

/** `tool_choice`: auto / any (= required) / tool / none, and `disable_parallel_tool_use`. */
export function decodeAnthropicToolChoice(body: JsonObject): { toolChoice?: ToolChoice; parallelToolCalls?: boolean } {
  const choice = readObject(body, 'tool_choice');
  if (!choice) return {};
  const type = readEnum(choice, 'type', ['auto', 'any', 'tool', 'none'] as const, 'tool_choice.type');
  if (type === undefined) throw invalidRequest('tool_choice.type', "Missing required parameter: 'tool_choice.type'.");
  const disableParallel = readBoolean(choice, 'disable_parallel_tool_use', 'tool_choice.disable_parallel_tool_use');
  const toolChoice: ToolChoice =
    type === 'any'
      ? { type: 'required' }
      : type === 'tool'
        ? { type: 'tool', toolName: requireNonEmptyString(choice, 'name', 'tool_choice.name') }
        : { type };
  return { toolChoice, ...(disableParallel !== undefined && { parallelToolCalls: !disableParallel }) };
}
