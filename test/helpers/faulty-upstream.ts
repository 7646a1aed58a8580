import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How an upstream fails: it closes cleanly (the body ends as if complete), cuts an event in half
 * and closes, sends an event that is not JSON and closes, resets the connection, or sends an error
 * event (or, for a JSON body, an error answer) that quotes its API key.
 */
export type Fault = 'close' | 'cut-mid-event' | 'invalid-json' | 'reset' | 'key-error';

export const FAULTS: readonly Fault[] = ['close', 'cut-mid-event', 'invalid-json', 'reset', 'key-error'];

/** What the faulty upstream sends: `head` whole, then the fault's own bytes; then it closes or resets. */
export interface FaultyReply {
  contentType: string;
  /** The part of the answer sent as it is. */
  head: string;
  /** Sent after the head, before the close (a half event, a garbled one, an error event). */
  tail?: string;
  /** Reset the connection instead of closing it cleanly. */
  reset?: boolean;
  status?: number;
}

export interface FaultyUpstream {
  url: string;
  /** Requests received so far. */
  readonly requests: number;
  close(): Promise<void>;
}

/** An upstream on 127.0.0.1 that fails as `reply` says, for each request (path and body given). */
export async function startFaultyUpstream(reply: (path: string, body: string) => FaultyReply): Promise<FaultyUpstream> {
  let requests = 0;
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    requests += 1;
    const answer = reply(request.url ?? '/', Buffer.concat(chunks).toString('utf8'));
    // Chunked, as vendors stream: a clean close is the body's last chunk, a complete body to HTTP.
    response.writeHead(answer.status ?? 200, { 'content-type': answer.contentType, 'cache-control': 'no-cache' });
    response.flushHeaders();
    if (answer.head) response.write(answer.head);
    if (answer.tail) response.write(answer.tail);
    if (answer.reset) {
      // Let what was written reach the gateway, then cut the connection.
      await sleep(20);
      response.destroy();
      return;
    }
    response.end();
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
