import type { Protocol } from '../core/protocol.js';
import { anthropicMessagesCodec } from './anthropic-messages/codec.js';
import { openAIChatCodec } from './openai-chat/codec.js';
import type { ProtocolCodec } from './protocol-codec.js';

/** The codec of each protocol: four codecs serve all sixteen client × upstream pairs. */
const CODECS: Partial<Record<Protocol, ProtocolCodec>> = {
  'openai-chat': openAIChatCodec,
  'anthropic-messages': anthropicMessagesCodec,
};

export function getCodec(protocol: Protocol): ProtocolCodec {
  const codec = CODECS[protocol];
  if (!codec) throw new Error(`No codec for protocol ${protocol}`);
  return codec;
}
