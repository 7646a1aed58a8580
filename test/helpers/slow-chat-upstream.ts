import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * An OpenAI Chat upstream on 127.0.0.1 that answers every request with `pieces`, one every
 * `pieceMs` (a stream, or one JSON answer after the same time), and counts what it is asked:
 * slow enough for a test to cut a client off mid-answer.
 */
export class SlowChatUpstream {
  readonly server: Server;
  requests = 0;

  constructor(pieces: readonly string[], pieceMs: number) {
    const text = pieces.join('');
    this.server = createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      this.requests += 1;
      const usage = { prompt_tokens: 5, completion_tokens: pieces.length, total_tokens: 5 + pieces.length };
      if (!JSON.parse(body).stream) {
        await sleep(pieceMs * pieces.length);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ id: 'chatcmpl-slow', object: 'chat.completion', created: 1, model: 'slow', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage }));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-slow', object: 'chat.completion.chunk', created: 1, model: 'slow', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      for (const [index, piece] of pieces.entries()) {
        if (response.destroyed) return;
        response.write(chunk(index === 0 ? { role: 'assistant', content: piece } : { content: piece }));
        await sleep(pieceMs);
      }
      response.end(`${chunk({}, 'stop')}data: ${JSON.stringify({ id: 'chatcmpl-slow', object: 'chat.completion.chunk', created: 1, model: 'slow', choices: [], usage })}\n\ndata: [DONE]\n\n`);
    });
  }

  listen(): Promise<void> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}
