import { decodeOpenAIError } from '../openai-chat/decode-error.js';
import { encodeOpenAIError } from '../openai-chat/encode-error.js';
import { requestWithoutConversation, type ProtocolCodec } from '../protocol-codec.js';
import { decodeOpenAIResponsesRequest } from './decode-request.js';
import { decodeOpenAIResponsesResponse } from './decode-response.js';
import { createOpenAIResponsesStreamDecoder } from './decode-stream.js';
import { encodeOpenAIResponsesRequest } from './encode-request.js';
import { encodeOpenAIResponsesResponse } from './encode-response.js';
import { createOpenAIResponsesStreamEncoder } from './encode-stream.js';
import { prepareOpenAIResponsesPassthrough } from './prepare-passthrough.js';

/** OpenAI Responses: `POST /v1/responses` (PROTOCOLS.md §3). Errors use the Chat envelope (§3.5). */
export const openAIResponsesCodec: ProtocolCodec = {
  protocol: 'openai-responses',
  decodeRequest: (body) => decodeOpenAIResponsesRequest(body),
  // A Response object echoes the request's instructions and tools.
  responseRequestOf: requestWithoutConversation,
  encodeResponse: encodeOpenAIResponsesResponse,
  createStreamEncoder: createOpenAIResponsesStreamEncoder,
  encodeError: encodeOpenAIError,
  encodeRequest: encodeOpenAIResponsesRequest,
  decodeResponse: decodeOpenAIResponsesResponse,
  createStreamDecoder: createOpenAIResponsesStreamDecoder,
  decodeError: decodeOpenAIError,
  preparePassthrough: prepareOpenAIResponsesPassthrough,
};
