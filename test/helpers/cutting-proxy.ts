import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of the gateway that breaks the next connection it is told to,
 * as a dropped network does: `cut-after-body` once the first bytes of the response's body have
 * reached the client (a stream cut mid-way), `reset-before-response` once the request has been
 * passed on and before any answer (a non-stream request whose connection dies while the model
 * works). Every other connection passes untouched. The gateway checks the Host header: list the
 * proxy's `127.0.0.1:port` in its `server.allowedHosts`.
 */
export type CutMode = 'cut-after-body' | 'reset-before-response';

export interface CuttingProxy {
  url: string;
  /**
   * Breaks the next connection that carries a request, then passes the rest. With `after`, a
   * `cut-after-body` waits for a chunk of the response that holds that text (the answer's first
   * words, say) and cuts once it has gone through.
   */
  cutNext(mode: CutMode, after?: string): void;
  /** How many connections were cut. */
  readonly cuts: number;
  close(): Promise<void>;
}

export async function startCuttingProxy(target: () => string): Promise<CuttingProxy> {
  let pending: CutMode | undefined;
  let pendingAfter: string | undefined;
  let cuts = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const { hostname, port } = new URL(target());
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    let mode: CutMode | undefined;
    let after: string | undefined;
    let seenHeaderEnd = false;
    let cutDone = false;
    const cut = (): void => {
      if (cutDone) return;
      cutDone = true;
      cuts += 1;
      client.resetAndDestroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      // The connection that carries the next request is the one to break.
      if (mode === undefined && pending !== undefined) {
        mode = pending;
        after = pendingAfter;
        pending = undefined;
      }
      upstream.write(chunk);
      // Long enough for the gateway to have read the request and started the generation.
      if (mode === 'reset-before-response' && !cutDone) setTimeout(cut, 150).unref();
    });
    upstream.on('data', (chunk: Buffer) => {
      if (mode === 'reset-before-response') return;
      if (mode === 'cut-after-body') {
        const text = chunk.toString('latin1');
        const headerEnd = seenHeaderEnd ? 0 : text.indexOf('\r\n\r\n');
        if (!seenHeaderEnd && headerEnd >= 0) seenHeaderEnd = true;
        // A chunk that carries body bytes (with `after`, that text) goes through, then the connection dies.
        if (seenHeaderEnd && (headerEnd < 0 || headerEnd + 4 < text.length) && (after === undefined || text.includes(after))) {
          client.write(chunk, cut);
          return;
        }
      }
      client.write(chunk);
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cutNext(mode, afterText) {
      pending = mode;
      pendingAfter = afterText;
    },
    get cuts() {
      return cuts;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
