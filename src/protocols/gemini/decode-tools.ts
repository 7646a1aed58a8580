import { invalidRequest } from '../../core/gateway-error.js';
import type { FunctionTool, Tool, ToolChoice } from '../../core/generate-request.js';
import type { JSONSchema } from '../../core/json-schema.js';
import { pickUnknownFields, readArray, readEnum, readObject, readString, requireNonEmptyString, type JsonObject } from '../read-fields.js';
import { readCamelCaseFields } from './camel-case-fields.js';
import { convertGeminiSchemaToJsonSchema } from './convert-schema.js';
import { withGeminiMetadata } from './decode-part.js';

const FUNCTION_CALLING_MODES = ['AUTO', 'ANY', 'NONE', 'VALIDATED', 'MODE_UNSPECIFIED'] as const;
const DECLARATION_FIELDS = new Set(['name', 'description', 'parameters', 'parametersJsonSchema']);

/**
 * `tools` → core tools. Function declarations become function tools (Gemini CLI sends
 * `parametersJsonSchema`, the SDK's typed schemas arrive as `parameters`); every other tool
 * (`googleSearch`, `codeExecution`, `urlContext`, ...) is a Gemini provider tool.
 */
export function decodeGeminiTools(rawTools: unknown[]): Tool[] {
  const tools: Tool[] = [];
  rawTools.forEach((rawTool, toolIndex) => {
    const tool = readCamelCaseFields(rawTool, `tools[${toolIndex}]`);
    for (const [key, value] of Object.entries(tool.fields)) {
      if (key !== 'functionDeclarations') {
        tools.push({ type: 'provider', protocol: 'gemini', name: key, raw: { [key]: value } });
        continue;
      }
      const declarations = readArray(tool.fields, key, tool.param(key)) ?? [];
      declarations.forEach((rawDeclaration, index) => tools.push(decodeDeclaration(rawDeclaration, `${tool.param(key)}[${index}]`)));
    }
  });
  return tools;
}

function decodeDeclaration(rawDeclaration: unknown, param: string): FunctionTool {
  const declaration = readCamelCaseFields(rawDeclaration, param);
  const name = requireNonEmptyString(declaration.fields, 'name', declaration.param('name'));
  const description = readString(declaration.fields, 'description', declaration.param('description'));
  const jsonSchema = readObject(declaration.fields, 'parametersJsonSchema', declaration.param('parametersJsonSchema'));
  const openApiSchema = readObject(declaration.fields, 'parameters', declaration.param('parameters'));
  const sent: { key: string; schema: JSONSchema } | undefined = jsonSchema
    ? { key: 'parametersJsonSchema', schema: jsonSchema }
    : openApiSchema
      ? { key: 'parameters', schema: openApiSchema }
      : undefined;
  const inputSchema = sent ? convertGeminiSchemaToJsonSchema(sent.schema) : { type: 'object', properties: {} };
  // The schema as sent, for a Gemini upstream, when the conversion changed it; and the fields the
  // core has no place for (`response`, `behavior`, ...).
  const original = sent && JSON.stringify(inputSchema) !== JSON.stringify(sent.schema) ? { [sent.key]: sent.schema } : {};
  const extra = pickUnknownFields(declaration.fields, DECLARATION_FIELDS);
  const declarationFields = Object.assign(original, extra);
  return {
    type: 'function',
    name,
    inputSchema,
    ...(description !== undefined && { description }),
    ...withGeminiMetadata({ declarationFields: Object.keys(declarationFields).length > 0 ? declarationFields : undefined }),
  };
}

export interface DecodedToolConfig {
  toolChoice?: ToolChoice;
  /** What the core cannot express, keyed `toolConfig.<field>` for `extensions.gemini`. */
  extension: JsonObject;
}

/**
 * `toolConfig.functionCallingConfig` → tool choice: AUTO → auto, NONE → none, ANY → required, and
 * ANY with a single allowed name → that tool. A config the core cannot say in full (ANY among
 * several names, VALIDATED) is also kept whole for a Gemini upstream.
 */
export function decodeGeminiToolConfig(rawToolConfig: unknown, param: string): DecodedToolConfig {
  const toolConfig = readCamelCaseFields(rawToolConfig, param);
  const extension: JsonObject = {};
  for (const [key, value] of Object.entries(pickUnknownFields(toolConfig.fields, new Set(['functionCallingConfig'])))) {
    extension[`toolConfig.${key}`] = value;
  }
  if (toolConfig.fields.functionCallingConfig === undefined || toolConfig.fields.functionCallingConfig === null) return { extension };

  const config = readCamelCaseFields(toolConfig.fields.functionCallingConfig, toolConfig.param('functionCallingConfig'));
  const mode = readEnum(config.fields, 'mode', FUNCTION_CALLING_MODES, config.param('mode'));
  const names = (readArray(config.fields, 'allowedFunctionNames', config.param('allowedFunctionNames')) ?? []).map((name, index) => {
    if (typeof name !== 'string') throw invalidRequest(`${config.param('allowedFunctionNames')}[${index}]`, 'Invalid type: expected a string.');
    return name;
  });
  const onlyModeAndNames = Object.keys(config.fields).every((key) => key === 'mode' || key === 'allowedFunctionNames');
  let toolChoice: ToolChoice | undefined;
  // Whether the tool choice says everything the config says.
  let expressed = onlyModeAndNames && names.length === 0;
  if (mode === 'AUTO') toolChoice = { type: 'auto' };
  else if (mode === 'NONE') toolChoice = { type: 'none' };
  else if (mode === 'VALIDATED') {
    // Calls or text as the model likes, calls checked against their schema: closest to auto.
    toolChoice = { type: 'auto' };
    expressed = false;
  } else if (mode === 'ANY' && names.length === 1) {
    toolChoice = { type: 'tool', toolName: names[0] };
    expressed = onlyModeAndNames;
  } else if (mode === 'ANY') toolChoice = { type: 'required' };
  if (!expressed) extension['toolConfig.functionCallingConfig'] = toolConfig.fields.functionCallingConfig;
  return { extension, ...(toolChoice && { toolChoice }) };
}
