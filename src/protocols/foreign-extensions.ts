import type { GenerateRequest } from '../core/generate-request.js';
import type { Protocol } from '../core/protocol.js';
import type { Warning } from '../core/warning.js';

/**
 * Fields that only the client's own protocol understands (kept in `extensions`) cannot reach an
 * upstream of another protocol: each becomes a warning.
 */
export function warnForeignExtensions(request: GenerateRequest, target: Protocol): Warning[] {
  const warnings: Warning[] = [];
  for (const [protocol, fields] of Object.entries(request.extensions)) {
    if (protocol === target || !fields) continue;
    for (const [key, value] of Object.entries(fields)) {
      if (IGNORABLE.has(key) || (key === 'store' && value === false)) continue;
      warnings.push({ type: 'dropped', feature: key, details: `not expressible for an upstream speaking ${target}` });
    }
  }
  return warnings;
}

/**
 * Fields that steer only the gateway's own answer to the client, never the upstream. Responses'
 * `store: false` (Codex CLI and the AI SDK send it) is skipped above too: it asks for what the
 * gateway does anyway, keep nothing, so no upstream loses anything by not hearing it.
 */
const IGNORABLE = new Set(['include_usage']);
