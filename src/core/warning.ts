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

export function formatWarnings(warnings: readonly Warning[]): string {
  return warnings
    .map((warning) => `${warning.type} ${warning.feature}${warning.details ? `: ${warning.details}` : ''}`)
    .join('; ')
    .replace(/[^\x20-\x7e]/g, '?');
}
