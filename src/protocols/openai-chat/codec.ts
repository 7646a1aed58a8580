import { sseData } from '../../sse/write-sse.js';
import { requestWithoutPrompt, type ProtocolCodec } from '../protocol-codec.js';
import { decodeOpenAIError } from './decode-error.js';
import { decodeOpenAIChatRequest } from './decode-request.js';
import { decodeOpenAIChatResponse } from './decode-response.js';
import { createOpenAIChatStreamDecoder, endsOpenAIChatStream } from './decode-stream.js';
import { encodeOpenAIError } from './encode-error.js';
import { encodeOpenAIChatRequest } from './encode-request.js';
import { encodeOpenAIChatResponse } from './encode-response.js';
import { createOpenAIChatStreamEncoder } from './encode-stream.js';
import { prepareOpenAIChatPassthrough } from './prepare-passthrough.js';

/** OpenAI Chat Completions: `POST /v1/chat/completions` (docs/protocols.md §1). */
export const openAIChatCodec: ProtocolCodec = {
  protocol: 'openai-chat',
  decodeRequest: (body) => decodeOpenAIChatRequest(body),
  responseRequestOf: requestWithoutPrompt,
  encodeResponse: encodeOpenAIChatResponse,
  createStreamEncoder: createOpenAIChatStreamEncoder,
  encodeError: encodeOpenAIError,
  // The SDK throws on a data record with a top-level `error`.
  encodeStreamError: (error) => sseData(JSON.stringify(encodeOpenAIError(error).body)),
  encodeRequest: encodeOpenAIChatRequest,
  decodeResponse: decodeOpenAIChatResponse,
  createStreamDecoder: createOpenAIChatStreamDecoder,
  endsStream: endsOpenAIChatStream,
  decodeError: decodeOpenAIError,
  preparePassthrough: prepareOpenAIChatPassthrough,
};
