/**
 * Something the target protocol cannot express. Warnings are logged and returned to the client in
 * the `x-switchyard-warnings` response header; nothing is dropped silently.
 */
export interface Warning {
  type: 'unsupported' | 'dropped' | 'changed';
  /** The field or feature, in the client's terms (e.g. `tools[2]`, `temperature`, `reasoning`). */
  feature: string;
  details?: string;
}

/** Clients and proxies refuse very long headers (Node's default limit is 16 KB for them all). */
const MAX_HEADER_LENGTH = 4000;

/** Warnings as one header value: printable ASCII, and cut (saying how many more) when too long. */
export function formatWarnings(warnings: readonly Warning[]): string {
  const texts = warnings.map((warning) => `${warning.type} ${warning.feature}${warning.details ? `: ${warning.details}` : ''}`.replace(/[^\x20-\x7e]/g, '?'));
  let value = '';
  for (const [position, text] of texts.entries()) {
    const next = value ? `${value}; ${text}` : text;
    if (next.length > MAX_HEADER_LENGTH) return `${value}; (+${texts.length - position} more)`;
    value = next;
  }
  return value;
}
