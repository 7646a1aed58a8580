import { invalidRequest } from '../../core/gateway-error.js';
import type { Tool, ToolChoice } from '../../core/generate-request.js';
import { isJsonObject, readArray, readBoolean, readObject, readString, requireNonEmptyString, requireObject, requireString, type JsonObject } from '../read-fields.js';

/** OpenAI `tools` → core tools; non-function tools are kept for an OpenAI upstream. */
export function decodeTools(body: JsonObject): Tool[] {
  const rawTools = readArray(body, 'tools') ?? [];
  return rawTools.map((rawTool, index): Tool => {
    const param = `tools[${index}]`;
    const tool = requireObject(rawTool, param);
    const type = requireString(tool, 'type', `${param}.type`);
    if (type !== 'function') {
      return { type: 'provider', protocol: 'openai-chat', name: readString(tool, 'name') ?? type, raw: tool };
    }
    const fn = requireObject(tool.function, `${param}.function`);
    const name = requireNonEmptyString(fn, 'name', `${param}.function.name`);
    if (!/^[a-zA-Z0-9_.-]{1,128}$/.test(name)) {
      throw invalidRequest(`${param}.function.name`, `Invalid '${param}.function.name': '${name}' must match ^[a-zA-Z0-9_.-]{1,128}$.`);
    }
    const description = readString(fn, 'description', `${param}.function.description`);
    const parameters = readObject(fn, 'parameters', `${param}.function.parameters`) ?? { type: 'object', properties: {} };
    const strict = readBoolean(fn, 'strict', `${param}.function.strict`);
    return {
      type: 'function',
      name,
      inputSchema: parameters,
      ...(description !== undefined && { description }),
      ...(strict !== undefined && { strict }),
    };
  });
}

export function decodeToolChoice(value: unknown): ToolChoice | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'auto' || value === 'none' || value === 'required') return { type: value };
  if (isJsonObject(value) && value.type === 'function') {
    const fn = requireObject(value.function, 'tool_choice.function');
    return { type: 'tool', toolName: requireNonEmptyString(fn, 'name', 'tool_choice.function.name') };
  }
  throw invalidRequest('tool_choice', "Invalid 'tool_choice': expected 'none', 'auto', 'required' or {type: 'function', function: {name}}.");
}

