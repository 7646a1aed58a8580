import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request an agent tried to send off the machine through its proxy settings. */
export interface StrayRequest {
  method: string;
  /** `host:port` of a CONNECT (HTTPS), or the absolute URL of a plain HTTP request. */
  target: string;
}

export interface NetworkTrap {
  /** The proxy URL to put in HTTP(S)_PROXY. */
  url: string;
  strays: StrayRequest[];
  close(): Promise<void>;
}

/**
 * The proxy every agent is given: on 127.0.0.1, it refuses everything (403) and writes down what
 * was tried, so a request meant for the internet fails at once and the test can name it.
 * NO_PROXY=127.0.0.1,localhost keeps the gateway traffic direct.
 */
export async function startNetworkTrap(): Promise<NetworkTrap> {
  const strays: StrayRequest[] = [];
  const server = createServer((request, response) => {
    strays.push({ method: request.method ?? 'GET', target: request.url ?? '' });
    response.writeHead(403, { connection: 'close' }).end('blocked by the switchyard agent tests');
  });
  server.on('connect', (request, socket) => {
    strays.push({ method: 'CONNECT', target: request.url ?? '' });
    // An agent may reset the tunnel it was refused (opencode's npm client does).
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    strays,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
