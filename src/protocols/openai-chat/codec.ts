import { requestWithoutPrompt, type ProtocolCodec } from '../protocol-codec.js';
import { decodeOpenAIError } from './decode-error.js';
import { decodeOpenAIChatRequest } from './decode-request.js';
import { decodeOpenAIChatResponse } from './decode-response.js';
import { createOpenAIChatStreamDecoder } from './decode-stream.js';
import { encodeOpenAIError } from './encode-error.js';
import { encodeOpenAIChatRequest } from './encode-request.js';
import { encodeOpenAIChatResponse } from './encode-response.js';
import { createOpenAIChatStreamEncoder } from './encode-stream.js';
import { prepareOpenAIChatPassthrough } from './prepare-passthrough.js';

/** OpenAI Chat Completions: `POST /v1/chat/completions` (PROTOCOLS.md §1). */
export const openAIChatCodec: ProtocolCodec = {
  protocol: 'openai-chat',
  decodeRequest: (body) => decodeOpenAIChatRequest(body),
  responseRequestOf: requestWithoutPrompt,
  encodeResponse: encodeOpenAIChatResponse,
  createStreamEncoder: createOpenAIChatStreamEncoder,
  encodeError: encodeOpenAIError,
  encodeRequest: encodeOpenAIChatRequest,
  decodeResponse: decodeOpenAIChatResponse,
  createStreamDecoder: createOpenAIChatStreamDecoder,
  decodeError: decodeOpenAIError,
  preparePassthrough: prepareOpenAIChatPassthrough,
};
