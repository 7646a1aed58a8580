/**
 * An upstream stream event's data, parsed as JSON; `undefined` when it is not JSON (`JSON.parse`
 * never gives `undefined`). A stream decoder ends its stream with `invalidStreamEvent` then; a
 * completion rule reads such an event as not ending it.
 */
export function parseEventData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}
