import type { Protocol } from '../core/protocol.js';
import { anthropicMessagesCodec } from './anthropic-messages/codec.js';
import { geminiCodec } from './gemini/codec.js';
import { openAIChatCodec } from './openai-chat/codec.js';
import { openAIResponsesCodec } from './openai-responses/codec.js';
import type { ProtocolCodec } from './protocol-codec.js';

/** The codec of each protocol: four codecs serve all sixteen client × upstream pairs. */
const CODECS: Record<Protocol, ProtocolCodec> = {
  'openai-chat': openAIChatCodec,
  'anthropic-messages': anthropicMessagesCodec,
  'openai-responses': openAIResponsesCodec,
  gemini: geminiCodec,
};

export function getCodec(protocol: Protocol): ProtocolCodec {
  return CODECS[protocol];
}
