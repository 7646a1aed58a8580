import { requestWithoutPrompt, type ProtocolCodec } from '../protocol-codec.js';
import { decodeGeminiError } from './decode-error.js';
import { decodeGeminiRequest } from './decode-request.js';
import { decodeGeminiResponse } from './decode-response.js';
import { createGeminiStreamDecoder } from './decode-stream.js';
import { encodeGeminiError } from './encode-error.js';
import { encodeGeminiRequest } from './encode-request.js';
import { encodeGeminiResponse } from './encode-response.js';
import { createGeminiStreamEncoder } from './encode-stream.js';
import { prepareGeminiPassthrough } from './prepare-passthrough.js';

/** Google Gemini: `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent?alt=sse` (PROTOCOLS.md §4). */
export const geminiCodec: ProtocolCodec = {
  protocol: 'gemini',
  decodeRequest: decodeGeminiRequest,
  responseRequestOf: requestWithoutPrompt,
  encodeResponse: encodeGeminiResponse,
  createStreamEncoder: createGeminiStreamEncoder,
  encodeError: encodeGeminiError,
  encodeRequest: encodeGeminiRequest,
  decodeResponse: decodeGeminiResponse,
  createStreamDecoder: createGeminiStreamDecoder,
  decodeError: decodeGeminiError,
  preparePassthrough: prepareGeminiPassthrough,
};
