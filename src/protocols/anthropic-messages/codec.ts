import { requestWithoutPrompt, type ProtocolCodec } from '../protocol-codec.js';
import { decodeAnthropicMessagesError } from './decode-error.js';
import { decodeAnthropicMessagesRequest } from './decode-request.js';
import { decodeAnthropicMessagesResponse } from './decode-response.js';
import { createAnthropicMessagesStreamDecoder } from './decode-stream.js';
import { encodeAnthropicMessagesError } from './encode-error.js';
import { encodeAnthropicMessagesRequest } from './encode-request.js';
import { encodeAnthropicMessagesResponse } from './encode-response.js';
import { createAnthropicMessagesStreamEncoder } from './encode-stream.js';
import { prepareAnthropicMessagesPassthrough } from './prepare-passthrough.js';

/** Anthropic Messages: `POST /v1/messages` (PROTOCOLS.md §2). */
export const anthropicMessagesCodec: ProtocolCodec = {
  protocol: 'anthropic-messages',
  decodeRequest: (body) => decodeAnthropicMessagesRequest(body),
  responseRequestOf: requestWithoutPrompt,
  encodeResponse: encodeAnthropicMessagesResponse,
  createStreamEncoder: createAnthropicMessagesStreamEncoder,
  encodeError: encodeAnthropicMessagesError,
  encodeRequest: encodeAnthropicMessagesRequest,
  decodeResponse: decodeAnthropicMessagesResponse,
  createStreamDecoder: createAnthropicMessagesStreamDecoder,
  decodeError: decodeAnthropicMessagesError,
  preparePassthrough: prepareAnthropicMessagesPassthrough,
};
