import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { splitSseRecords } from './fixtures.js';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What the fake upstream answers: a JSON body, or SSE records sent one by one. */
export type FakeReply =
  | { status?: number; json: string; headers?: Record<string, string> }
  | {
      status?: number;
      sse: string;
      /** Delay before each record. */
      delayMs?: number;
      /** Cut the connection after this many records (an upstream that breaks). */
      breakAfter?: number;
      /** Go silent for `stallMs` after this many records (an upstream that hangs). */
      stallAfter?: number;
      stallMs?: number;
    };

export interface FakeUpstream {
  url: string;
  requests: RecordedRequest[];
  /** Records written so far over all streams (for ordering checks). */
  readonly recordsSent: number;
  close(): Promise<void>;
}

/** A vendor stand-in on 127.0.0.1 that replays recorded traffic. */
export async function startFakeUpstream(reply: (request: RecordedRequest) => FakeReply): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  let recordsSent = 0;
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const recorded: RecordedRequest = { method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
    requests.push(recorded);
    const answer = reply(recorded);
    if ('json' in answer) {
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.json);
      return;
    }
    response.writeHead(answer.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // As vendors do: the status is sent at once, however long the first event takes.
    response.flushHeaders();
    const records = splitSseRecords(answer.sse);
    for (const [index, record] of records.entries()) {
      if (answer.breakAfter !== undefined && index >= answer.breakAfter) {
        // Let what was written reach the gateway, then cut the connection.
        await sleep(20);
        response.destroy();
        return;
      }
      if (answer.stallAfter !== undefined && index === answer.stallAfter) await sleep(answer.stallMs ?? 1000);
      if (answer.delayMs) await sleep(answer.delayMs);
      if (response.destroyed) return;
      response.write(record);
      recordsSent += 1;
    }
    response.end();
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get recordsSent() {
      return recordsSent;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
