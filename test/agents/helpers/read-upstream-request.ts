/** The four upstream protocols the scripted vendor speaks. */
export type UpstreamProtocol = 'anthropic-messages' | 'openai-chat' | 'openai-responses' | 'gemini';

export const UPSTREAM_PROTOCOLS: readonly UpstreamProtocol[] = ['anthropic-messages', 'openai-chat', 'openai-responses', 'gemini'];

/** One model request as the scripted vendor reads it, whatever its protocol. */
export interface UpstreamTurn {
  protocol: UpstreamProtocol;
  model: string;
  stream: boolean;
  body: any;
  /** Names of the function tools offered (Responses namespaces flattened, `additional_tools` items included). */
  toolNames: string[];
  /** Names among them of Responses custom (freeform) tools, called with a raw string. */
  customToolNames: string[];
  /** Texts of the tool results the conversation carries. */
  toolResults: string[];
  /** Set when the request asks for JSON output; the schema when it gives one. */
  json?: { schema?: any };
}

/** Which protocol a request to the vendor is (by path) and what it asks for. Undefined: not a model request. */
export function readUpstreamRequest(method: string, url: string, bodyText: string): UpstreamTurn | undefined {
  if (method !== 'POST') return undefined;
  const path = url.split('?')[0];
  const body = JSON.parse(bodyText);
  if (path === '/v1/messages') return readAnthropic(body);
  if (path === '/v1/chat/completions') return readChat(body);
  if (path === '/v1/responses') return readResponses(body);
  const gemini = /^\/v1(?:beta)?\/models\/([^:]+):(generateContent|streamGenerateContent)$/.exec(path);
  if (gemini) return readGemini(body, decodeURIComponent(gemini[1]), gemini[2] === 'streamGenerateContent');
  return undefined;
}

function readAnthropic(body: any): UpstreamTurn {
  const toolResults: string[] = [];
  for (const message of body.messages ?? []) {
    for (const block of Array.isArray(message.content) ? message.content : []) {
      if (block.type === 'tool_result') toolResults.push(textOf(block.content));
    }
  }
  const format = body.output_config?.format ?? body.output_format;
  return {
    protocol: 'anthropic-messages',
    model: body.model,
    stream: body.stream === true,
    body,
    toolNames: (body.tools ?? []).map((tool: any) => tool.name),
    customToolNames: [],
    toolResults,
    ...(format?.type === 'json_schema' && { json: { schema: format.schema } }),
  };
}

function readChat(body: any): UpstreamTurn {
  const format = body.response_format;
  return {
    protocol: 'openai-chat',
    model: body.model,
    stream: body.stream === true,
    body,
    toolNames: (body.tools ?? []).map((tool: any) => tool.function?.name ?? tool.custom?.name),
    customToolNames: [],
    toolResults: (body.messages ?? []).filter((message: any) => message.role === 'tool').map((message: any) => textOf(message.content)),
    ...(format?.type === 'json_schema' && { json: { schema: format.json_schema?.schema } }),
    ...(format?.type === 'json_object' && { json: {} }),
  };
}

function readResponses(body: any): UpstreamTurn {
  const items: any[] = Array.isArray(body.input) ? body.input : [];
  const tools: any[] = [...(body.tools ?? []), ...items.filter((item) => item.type === 'additional_tools').flatMap((item) => item.tools ?? [])];
  const flat = tools.flatMap((tool) => (tool.type === 'namespace' ? (tool.tools ?? []) : [tool])).filter((tool) => typeof tool.name === 'string');
  const format = body.text?.format;
  return {
    protocol: 'openai-responses',
    model: body.model,
    stream: body.stream === true,
    body,
    toolNames: flat.map((tool) => tool.name),
    customToolNames: flat.filter((tool) => tool.type === 'custom').map((tool) => tool.name),
    toolResults: items.filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output').map((item) => textOf(item.output)),
    ...(format?.type === 'json_schema' && { json: { schema: format.schema } }),
    ...(format?.type === 'json_object' && { json: {} }),
  };
}

function readGemini(body: any, model: string, stream: boolean): UpstreamTurn {
  const config = body.generationConfig ?? {};
  const schema = config.responseJsonSchema ?? config.responseSchema;
  const parts: any[] = (body.contents ?? []).flatMap((content: any) => content.parts ?? []);
  return {
    protocol: 'gemini',
    model,
    stream,
    body,
    toolNames: (body.tools ?? []).flatMap((tool: any) => (tool.functionDeclarations ?? []).map((declaration: any) => declaration.name)),
    customToolNames: [],
    toolResults: parts.filter((part) => part.functionResponse).map((part) => JSON.stringify(part.functionResponse.response)),
    ...((schema !== undefined || config.responseMimeType === 'application/json') && { json: { schema } }),
  };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: any) => (typeof part === 'string' ? part : (part?.text ?? JSON.stringify(part)))).join('');
  return JSON.stringify(content);
}
