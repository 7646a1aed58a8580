/** Why generation ended, in a protocol-neutral form, with the upstream's own value in `raw`. */
export type UnifiedFinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

export interface FinishReason {
  unified: UnifiedFinishReason;
  raw?: string;
  /** The stop sequence that ended the text, when the upstream says which. */
  stopSequence?: string;
}
