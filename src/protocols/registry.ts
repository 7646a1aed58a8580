import { anthropicMessagesProtocol } from './anthropic-messages/descriptor.js';
import { geminiProtocol } from './gemini/descriptor.js';
import { openAIChatProtocol } from './openai-chat/descriptor.js';
import { openAIResponsesProtocol } from './openai-responses/descriptor.js';
import type { ProtocolDescriptor } from './protocol-descriptor.js';

/**
 * The protocols the gateway serves and calls, one line each. The first one's error envelope
 * answers what belongs to no protocol (an unknown path, the recoveries API).
 */
export const BUILT_IN_PROTOCOLS: readonly ProtocolDescriptor[] = [
  openAIChatProtocol,
  anthropicMessagesProtocol,
  openAIResponsesProtocol,
  geminiProtocol,
];
