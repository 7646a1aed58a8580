import type { ServerResponse } from 'node:http';
import type { H3Event } from 'h3';
import { createClientConnection, type ClientConnection } from '../gateway/client-connection.js';

/**
 * The client's connection of a request. On Node, from the response's `close` before it ended (no
 * AbortController per request); elsewhere from the request's signal.
 */
export function connectionOf(event: H3Event): ClientConnection {
  const response = (event.runtime as { node?: { res?: ServerResponse } } | undefined)?.node?.res;
  if (response) {
    return createClientConnection((markGone) => {
      if (response.destroyed && !response.writableEnded) return markGone();
      response.once('close', () => {
        if (!response.writableEnded) markGone();
      });
    });
  }
  const signal = event.req.signal;
  return createClientConnection((markGone) => (signal.aborted ? markGone() : signal.addEventListener('abort', markGone, { once: true })));
}
