import { GatewayError } from './gateway-error.js';

/**
 * A stream is complete only when its protocol's terminal event arrived (each stream decoder says
 * which, beside its `ends…Stream` rule). A stream that stops before it, however cleanly the
 * connection closed, is an upstream failure: the client gets its protocol's error, never a finish.
 */
export function streamEndedEarly(terminal: string): GatewayError {
  return new GatewayError('upstream_error', `The upstream ended the stream early, before ${terminal}: the response is incomplete.`, {
    status: 502,
    detailCode: 'upstream_ended_early',
  });
}

/** An upstream event whose data is not the JSON the protocol sends (a cut or garbled event). */
export function invalidStreamEvent(): GatewayError {
  return new GatewayError('upstream_error', 'The upstream sent a stream event that is not valid JSON: the response is incomplete.', {
    status: 502,
    detailCode: 'upstream_invalid_event',
  });
}
