import { decodeOpenAIError } from '../openai-chat/decode-error.js';
import { encodeOpenAIError } from '../openai-chat/encode-error.js';
import { sseEvent } from '../../sse/write-sse.js';
import { requestWithoutConversation, type ProtocolCodec } from '../protocol-codec.js';
import { decodeOpenAIResponsesRequest } from './decode-request.js';
import { decodeOpenAIResponsesResponse } from './decode-response.js';
import { createOpenAIResponsesStreamDecoder, endsOpenAIResponsesStream } from './decode-stream.js';
import { encodeOpenAIResponsesRequest } from './encode-request.js';
import { encodeOpenAIResponsesResponse } from './encode-response.js';
import { createOpenAIResponsesStreamEncoder } from './encode-stream.js';
import { prepareOpenAIResponsesPassthrough } from './prepare-passthrough.js';

/** OpenAI Responses: `POST /v1/responses` (docs/protocols.md §3). Errors use the Chat envelope (§3.5). */
export const openAIResponsesCodec: ProtocolCodec = {
  protocol: 'openai-responses',
  decodeRequest: (body) => decodeOpenAIResponsesRequest(body),
  // A Response object echoes the request's instructions and tools.
  responseRequestOf: requestWithoutConversation,
  encodeResponse: encodeOpenAIResponsesResponse,
  createStreamEncoder: createOpenAIResponsesStreamEncoder,
  encodeError: encodeOpenAIError,
  // An `error` event, which ends a Responses stream: the `response.failed` that follows it in a
  // stream of our own would need the upstream's response object, which a passthrough never decoded.
  encodeStreamError: (error) => {
    const { code, message, param, type } = (encodeOpenAIError(error).body as { error: { code: string | null; message: string; param: string | null; type: string } }).error;
    return sseEvent('error', JSON.stringify({ type: 'error', code: code ?? type, message, param }));
  },
  encodeRequest: encodeOpenAIResponsesRequest,
  decodeResponse: decodeOpenAIResponsesResponse,
  createStreamDecoder: createOpenAIResponsesStreamDecoder,
  endsStream: endsOpenAIResponsesStream,
  decodeError: decodeOpenAIError,
  preparePassthrough: prepareOpenAIResponsesPassthrough,
};
