import type { GatewayError } from '../core/gateway-error.js';
import type { Protocol } from '../core/protocol.js';
import type { Usage } from '../core/usage.js';
import type { InterruptedReason } from './recovery-sink.js';

/**
 * The log line of one generation: status, route, time, usage, and how it ended. No secrets. A
 * failure of the gateway's own is `failed=internal`, never an upstream error: its cause is
 * logged apart (`formatInternalError`).
 */
export function formatRequestLine(entry: {
  status: number;
  inbound: Protocol;
  upstream: string;
  ms: number;
  usage: Usage;
  reason?: InterruptedReason;
  error?: GatewayError;
  /** The attempts that failed before the answer (or before the last failure), already formatted. */
  failedAttempts?: string;
}): string {
  const internal = entry.error?.code === 'internal';
  const reason = internal && entry.reason === 'upstream_error' ? undefined : entry.reason;
  return (
    `${entry.status} ${entry.inbound} → ${oneLine(entry.upstream)} ${entry.ms}ms in=${entry.usage.input.total ?? '-'} out=${entry.usage.output.total ?? '-'}` +
    (reason ? ` interrupted=${reason}` : '') +
    (internal ? ' failed=internal' : '') +
    (entry.failedAttempts ? ` failed-attempts=${oneLine(entry.failedAttempts)}` : '') +
    (entry.error ? ` error="${oneLine(entry.error.message)}"` : '')
  );
}

/** The model name and an upstream's message are others' text: a line break in them would forge a log line. */
function oneLine(text: string): string {
  return text.replace(/[\x00-\x1f\x7f]/g, '?');
}

/**
 * An internal error with what caused it and where, for the error log: the client only got
 * "Internal gateway error.", and the request line only says `failed=internal`.
 */
export function formatInternalError(requestId: string, error: GatewayError): string {
  const cause = error.cause ?? error;
  const described = cause instanceof Error ? (cause.stack ?? `${cause.name}: ${cause.message}`) : String(cause);
  return `internal error in request ${requestId}: ${described}`;
}
