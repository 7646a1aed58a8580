import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** One request an agent made to the gateway, and the gateway's answer, as seen on the wire. */
export interface ClientExchange {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodyText: string;
  status?: number;
  responseHeaders?: IncomingHttpHeaders;
  /** The whole response body, collected while it was passed on unbuffered. */
  responseText: string;
  /** A WebSocket upgrade attempt (answered by the gateway's status line). */
  upgrade: boolean;
}

export interface RecordingProxy {
  url: string;
  exchanges: ClientExchange[];
  close(): Promise<void>;
}

/**
 * Sits between an agent and the gateway on 127.0.0.1 and records both directions: what the agent
 * really sent (to compare with what reached the vendor) and every status and warning header the
 * gateway answered. Each chunk is passed on as it arrives; upgrade requests are relayed raw.
 */
export async function startRecordingProxy(targetUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetUrl);
  const exchanges: ClientExchange[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((incoming, outgoing) => {
    const exchange: ClientExchange = { method: incoming.method ?? 'GET', url: incoming.url ?? '/', headers: incoming.headers, bodyText: '', responseText: '', upgrade: false };
    exchanges.push(exchange);
    const body: Buffer[] = [];
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: exchange.method, path: exchange.url, headers: { ...incoming.headers, host: target.host } },
      (answer) => {
        exchange.status = answer.statusCode;
        exchange.responseHeaders = answer.headers;
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => {
          exchange.responseText += chunk.toString('utf8');
          outgoing.write(chunk);
        });
        answer.on('end', () => outgoing.end());
        answer.on('error', () => outgoing.destroy());
      },
    );
    forward.on('error', () => outgoing.destroy());
    outgoing.on('close', () => forward.destroy());
    incoming.on('data', (chunk: Buffer) => {
      body.push(chunk);
      forward.write(chunk);
    });
    incoming.on('end', () => {
      exchange.bodyText = Buffer.concat(body).toString('utf8');
      forward.end();
    });
  });
  server.on('upgrade', (incoming, clientSocket: Socket, head: Buffer) => {
    const exchange: ClientExchange = { method: incoming.method ?? 'GET', url: incoming.url ?? '/', headers: incoming.headers, bodyText: '', responseText: '', upgrade: true };
    exchanges.push(exchange);
    const upstream = connect(Number(target.port), target.hostname, () => {
      const lines = [`${exchange.method} ${exchange.url} HTTP/1.1`];
      // Addressed to the gateway, as the plain requests are: it answers only its own Host.
      for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
        const name = incoming.rawHeaders[index];
        lines.push(`${name}: ${name.toLowerCase() === 'host' ? target.host : incoming.rawHeaders[index + 1]}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    upstream.on('data', (chunk: Buffer) => {
      exchange.responseText += chunk.toString('latin1');
      exchange.status ??= Number(/^HTTP\/1\.1 (\d{3})/.exec(exchange.responseText)?.[1]);
    });
    for (const socket of [upstream, clientSocket]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        upstream.destroy();
        clientSocket.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
