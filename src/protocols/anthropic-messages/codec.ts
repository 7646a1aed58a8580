import { sseEvent } from '../../sse/write-sse.js';
import { requestWithoutPrompt, type ProtocolCodec } from '../protocol-codec.js';
import { decodeAnthropicMessagesError } from './decode-error.js';
import { decodeAnthropicMessagesRequest } from './decode-request.js';
import { decodeAnthropicMessagesResponse } from './decode-response.js';
import { createAnthropicMessagesStreamDecoder, endsAnthropicMessagesStream } from './decode-stream.js';
import { encodeAnthropicMessagesError } from './encode-error.js';
import { encodeAnthropicMessagesRequest } from './encode-request.js';
import { encodeAnthropicMessagesResponse } from './encode-response.js';
import { createAnthropicMessagesStreamEncoder } from './encode-stream.js';
import { prepareAnthropicMessagesPassthrough } from './prepare-passthrough.js';

/** Anthropic Messages: `POST /v1/messages` (docs/protocols.md §2). */
export const anthropicMessagesCodec: ProtocolCodec = {
  protocol: 'anthropic-messages',
  decodeRequest: (body) => decodeAnthropicMessagesRequest(body),
  responseRequestOf: requestWithoutPrompt,
  encodeResponse: encodeAnthropicMessagesResponse,
  createStreamEncoder: createAnthropicMessagesStreamEncoder,
  encodeError: encodeAnthropicMessagesError,
  encodeStreamError: (error) => sseEvent('error', JSON.stringify(encodeAnthropicMessagesError(error).body)),
  encodeRequest: encodeAnthropicMessagesRequest,
  decodeResponse: decodeAnthropicMessagesResponse,
  createStreamDecoder: createAnthropicMessagesStreamDecoder,
  endsStream: endsAnthropicMessagesStream,
  decodeError: decodeAnthropicMessagesError,
  preparePassthrough: prepareAnthropicMessagesPassthrough,
};
