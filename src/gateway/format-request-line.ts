import type { GatewayError } from '../core/gateway-error.js';
import type { Protocol } from '../core/protocol.js';
import type { Usage } from '../core/usage.js';
import type { InterruptedReason } from './recovery-sink.js';

/** The log line of one generation: status, route, time, usage, and how it ended. No secrets. */
export function formatRequestLine(entry: {
  status: number;
  inbound: Protocol;
  upstream: string;
  ms: number;
  usage: Usage;
  reason?: InterruptedReason;
  error?: GatewayError;
}): string {
  return (
    `${entry.status} ${entry.inbound} → ${entry.upstream} ${entry.ms}ms in=${entry.usage.input.total ?? '-'} out=${entry.usage.output.total ?? '-'}` +
    (entry.reason ? ` interrupted=${entry.reason}` : '') +
    (entry.error ? ` error="${entry.error.message}"` : '')
  );
}
