/** One server-sent event, as parsed or as to be written. */
export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
  /**
   * Set by the parser for a line that is not SSE framing at all. Gemini writes a mid-stream error
   * as bare JSON (docs/protocols.md §4.5); its decoder reads these lines.
   */
  unframed?: boolean;
}
