import type { FilePart, Message, TextPart, ToolResultPart } from '../../core/content-part.js';
import { textOfParts } from '../../core/content-part.js';
import type { GenerateRequest, ToolChoice } from '../../core/generate-request.js';
import type { Warning } from '../../core/warning.js';
import { convertFileDataToUrl, toDataUrl } from '../data-url.js';
import { warnForeignExtensions } from '../foreign-extensions.js';
import type { EncodedRequest, EncodeRequestOptions } from '../protocol-codec.js';
import { encodeOpenAIReasoningEffort } from './encode-reasoning-effort.js';
import type { JsonObject } from '../read-fields.js';

/** GenerateRequest → OpenAI Chat Completions request (docs/protocols.md §1). */
export function encodeOpenAIChatRequest(request: GenerateRequest, options: EncodeRequestOptions): EncodedRequest {
  const warnings: Warning[] = [];
  const body: JsonObject = {
    model: options.model,
    messages: encodeMessages(request, warnings),
  };
  if (request.stream) {
    body.stream = true;
    // Usage is only streamed on request (docs/protocols.md §7.6); always ask for it.
    body.stream_options = { include_usage: true };
  }
  const functionTools: JsonObject[] = [];
  for (const tool of request.tools) {
    if (tool.type === 'function') {
      functionTools.push({
        type: 'function',
        function: {
          name: tool.name,
          ...(tool.description !== undefined && { description: tool.description }),
          parameters: tool.inputSchema,
          ...(tool.strict !== undefined && { strict: tool.strict }),
        },
      });
    } else if (tool.protocol === 'openai-chat') {
      functionTools.push(tool.raw);
    } else {
      warnings.push({ type: 'dropped', feature: `tool ${tool.name}`, details: 'a built-in tool of another vendor' });
    }
  }
  if (functionTools.length > 0) body.tools = functionTools;
  if (request.toolChoice && functionTools.length > 0) body.tool_choice = encodeToolChoice(request.toolChoice);
  if (request.parallelToolCalls !== undefined && functionTools.length > 0) body.parallel_tool_calls = request.parallelToolCalls;
  if (request.maxOutputTokens !== undefined) body.max_completion_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.topK !== undefined) warnings.push({ type: 'dropped', feature: 'top_k', details: 'OpenAI Chat has no top_k' });
  if (request.n !== undefined) body.n = request.n;
  if (request.stopSequences?.length) {
    body.stop = request.stopSequences.slice(0, 4);
    if (request.stopSequences.length > 4) warnings.push({ type: 'changed', feature: 'stop_sequences', details: 'only the first 4 are sent' });
  }
  if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.responseFormat) {
    const format = request.responseFormat;
    body.response_format =
      format.type === 'text'
        ? { type: 'text' }
        : format.schema
          ? {
              type: 'json_schema',
              json_schema: {
                name: format.name ?? 'response',
                schema: format.schema,
                ...(format.description !== undefined && { description: format.description }),
                ...(format.strict !== undefined && { strict: format.strict }),
              },
            }
          : { type: 'json_object' };
  }
  const effort = encodeOpenAIReasoningEffort(request.reasoning, warnings, 'reasoning_effort');
  if (effort) body.reasoning_effort = effort;
  if (request.user !== undefined) body.user = request.user;
  if (request.metadata) body.metadata = request.metadata;
  Object.assign(body, request.extensions['openai-chat']);
  delete body.include_usage;
  warnings.push(...warnForeignExtensions(request, 'openai-chat'));
  return { path: '/chat/completions', body, warnings };
}

function encodeToolChoice(choice: ToolChoice): unknown {
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.toolName } } : choice.type;
}

function encodeMessages(request: GenerateRequest, warnings: Warning[]): JsonObject[] {
  const messages: JsonObject[] = [];
  if (request.system.length > 0) messages.push({ role: 'system', content: textOfParts(request.system, '\n\n') });
  request.messages.forEach((message, index) => messages.push(...encodeMessage(message, index, warnings)));
  return messages;
}

function encodeMessage(message: Message, index: number, warnings: Warning[]): JsonObject[] {
  switch (message.role) {
    case 'system':
      return [{ role: 'system', content: textOfParts(message.content, '\n\n') }];
    case 'user':
      return [{ role: 'user', content: encodeUserContent(message.content, `messages[${index}]`, warnings) }];
    case 'assistant': {
      const text: TextPart[] = [];
      const toolCalls: JsonObject[] = [];
      let droppedReasoning = false;
      for (const part of message.content) {
        if (part.type === 'text') text.push(part);
        else if (part.type === 'tool-call') {
          toolCalls.push({ id: part.toolCallId, type: 'function', function: { name: part.toolName, arguments: part.input } });
        } else if (part.type === 'reasoning') droppedReasoning = true;
        else warnings.push({ type: 'dropped', feature: `messages[${index}] file`, details: 'assistant files cannot be sent to OpenAI Chat' });
      }
      if (droppedReasoning) warnings.push({ type: 'dropped', feature: `messages[${index}] reasoning`, details: 'OpenAI Chat takes no reasoning history' });
      const wire: JsonObject = { role: 'assistant', content: text.length > 0 ? textOfParts(text) : null };
      if (toolCalls.length > 0) wire.tool_calls = toolCalls;
      return [wire];
    }
    case 'tool':
      return message.content.map((result) => ({
        role: 'tool',
        tool_call_id: result.toolCallId,
        content: encodeToolResultContent(result, index, warnings),
      }));
    default: {
      const unexpected: never = message;
      throw new Error(`Unhandled message ${JSON.stringify(unexpected)}`);
    }
  }
}

function encodeUserContent(parts: Array<TextPart | FilePart>, param: string, warnings: Warning[]): string | JsonObject[] {
  if (parts.length === 1 && parts[0].type === 'text') return parts[0].text;
  const wire: JsonObject[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      wire.push({ type: 'text', text: part.text });
    } else if (part.mediaType.startsWith('image/')) {
      const detail = part.protocolMetadata?.['openai-chat']?.detail;
      wire.push({ type: 'image_url', image_url: { url: convertFileDataToUrl(part.mediaType, part.data), ...(detail !== undefined && { detail }) } });
    } else if ((part.mediaType === 'audio/wav' || part.mediaType === 'audio/mpeg') && part.data.type === 'base64') {
      wire.push({ type: 'input_audio', input_audio: { data: part.data.base64, format: part.mediaType === 'audio/mpeg' ? 'mp3' : 'wav' } });
    } else if (part.data.type === 'base64') {
      wire.push({ type: 'file', file: { file_data: toDataUrl(part.mediaType, part.data.base64), filename: part.filename ?? 'file' } });
    } else {
      warnings.push({ type: 'dropped', feature: `${param} file ${part.mediaType}`, details: 'OpenAI Chat takes documents only inline' });
    }
  }
  return wire;
}

function encodeToolResultContent(result: ToolResultPart, index: number, warnings: Warning[]): string {
  if (result.content.some((part) => part.type === 'file')) {
    warnings.push({ type: 'dropped', feature: `messages[${index}] tool result file`, details: 'OpenAI Chat tool results are text only' });
  }
  const text = textOfParts(result.content, '\n');
  return result.isError ? `Error: ${text}` : text;
}
