import type { Protocol } from '../core/protocol.js';
import type { ProtocolCodec } from './protocol-codec.js';
import { BUILT_IN_PROTOCOLS } from './registry.js';

/**
 * The codec of a built-in protocol, for code that works with the built-in ones alone (tests, the
 * codec benchmark). A server reads the codecs of its own registry.
 */
export function getCodec(protocol: Protocol): ProtocolCodec {
  const descriptor = BUILT_IN_PROTOCOLS.find((entry) => entry.id === protocol);
  if (!descriptor) throw new Error(`Unknown protocol '${protocol}'.`);
  return descriptor.codec;
}
