import type { AssistantPart } from './content-part.js';
import type { FinishReason } from './finish-reason.js';
import type { ProtocolMetadata } from './protocol.js';
import type { Usage } from './usage.js';

export interface Choice {
  index: number;
  content: AssistantPart[];
  finishReason: FinishReason;
}

/** A complete (non-stream) response, independent of any wire protocol. */
export interface GenerateResponse {
  /** The upstream's response id, when known. */
  id?: string;
  /** The model that answered, as the upstream named it. */
  model?: string;
  /** At least one choice; more only when the request asked for n > 1. */
  choices: Choice[];
  usage: Usage;
  protocolMetadata?: ProtocolMetadata;
}
