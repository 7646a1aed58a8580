import type { ServerResponse } from 'node:http';
import type { H3Event } from 'h3';
import { createClientConnection, MarkableConnection, type ClientConnection } from '../gateway/client-connection.js';

/**
 * The client's connection of a request. On Node, from the response's `close` before it ended (no
 * AbortController per request); elsewhere from the request's signal.
 */
export function connectionOf(event: H3Event): ClientConnection {
  const response = (event.runtime as { node?: { res?: ServerResponse } } | undefined)?.node?.res;
  if (response) {
    // One listener, which lives as long as the request: no closure around it but its own.
    const connection = new MarkableConnection();
    if (response.destroyed && !response.writableEnded) connection.markGone();
    else {
      response.once('close', () => {
        if (!response.writableEnded) connection.markGone();
      });
    }
    return connection;
  }
  const signal = event.req.signal;
  return createClientConnection((markGone) => (signal.aborted ? markGone() : signal.addEventListener('abort', markGone, { once: true })));
}
