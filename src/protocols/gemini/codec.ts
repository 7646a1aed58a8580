import { requestWithoutPrompt, type ProtocolCodec } from '../protocol-codec.js';
import { decodeGeminiError } from './decode-error.js';
import { decodeGeminiRequest } from './decode-request.js';
import { decodeGeminiResponse } from './decode-response.js';
import { createGeminiStreamDecoder, endsGeminiStream } from './decode-stream.js';
import { encodeGeminiError } from './encode-error.js';
import { encodeGeminiRequest } from './encode-request.js';
import { encodeGeminiResponse } from './encode-response.js';
import { createGeminiStreamEncoder } from './encode-stream.js';
import { prepareGeminiPassthrough } from './prepare-passthrough.js';

/** Google Gemini: `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent?alt=sse` (docs/protocols.md §4). */
export const geminiCodec: ProtocolCodec = {
  protocol: 'gemini',
  decodeRequest: decodeGeminiRequest,
  responseRequestOf: requestWithoutPrompt,
  encodeResponse: encodeGeminiResponse,
  createStreamEncoder: createGeminiStreamEncoder,
  encodeError: encodeGeminiError,
  // Bare JSON, not data-framed: @google/genai detects an error only when it reads one as such.
  encodeStreamError: (error) => JSON.stringify(encodeGeminiError(error).body),
  encodeRequest: encodeGeminiRequest,
  decodeResponse: decodeGeminiResponse,
  createStreamDecoder: createGeminiStreamDecoder,
  endsStream: endsGeminiStream,
  decodeError: decodeGeminiError,
  preparePassthrough: prepareGeminiPassthrough,
};
