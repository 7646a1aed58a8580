import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readUpstreamRequest, type UpstreamProtocol, type UpstreamTurn } from './read-upstream-request.js';
import { renderAnthropic } from './render-anthropic.js';
import { renderGemini } from './render-gemini.js';
import { renderOpenAIChat } from './render-openai-chat.js';
import { renderOpenAIResponses } from './render-openai-responses.js';
import { checkVendorRules, type VendorRefusal } from './vendor-rules.js';
import { decideAnswer, type Script, type ScriptedAnswer } from './script-answer.js';

/** One request the vendor received, with what it answered. */
export interface VendorExchange {
  method: string;
  /** Path and query, as sent (`/v1/messages?beta=true`). */
  url: string;
  headers: IncomingHttpHeaders;
  bodyText: string;
  turn?: UpstreamTurn;
  answer?: ScriptedAnswer;
  /** Set when the request broke a rule the real vendor enforces (vendor-rules.ts): it was answered with this error. */
  refusal?: VendorRefusal;
  /** The body the vendor answered with. */
  responseText?: string;
}

export interface ScriptedUpstream {
  url: string;
  exchanges: VendorExchange[];
  /** What the next requests get; set by each test before it runs an agent. */
  script: Script;
  close(): Promise<void>;
}

/**
 * A model vendor on 127.0.0.1 that speaks all four protocols (chosen by the request path) and
 * answers by script: the vendor half of every agent test. It records every request as received.
 */
export async function startScriptedUpstream(): Promise<ScriptedUpstream> {
  const exchanges: VendorExchange[] = [];
  let serial = 0;
  const state: ScriptedUpstream = {
    url: '',
    exchanges,
    script: { scenario: 'text', answer: 'unset', filePath: '/nonexistent', fileToken: 'FILE-TOKEN-unset' },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const exchange: VendorExchange = { method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers, bodyText: Buffer.concat(chunks).toString('utf8') };
    exchanges.push(exchange);
    let turn: UpstreamTurn | undefined;
    try {
      turn = readUpstreamRequest(exchange.method, exchange.url, exchange.bodyText);
    } catch (error) {
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `scripted vendor: unreadable request: ${String(error)}` } }));
      return;
    }
    if (!turn) {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `scripted vendor: no route ${exchange.method} ${exchange.url}` } }));
      return;
    }
    exchange.turn = turn;
    const refusal = checkVendorRules(turn);
    if (refusal) {
      exchange.refusal = refusal;
      response.writeHead(refusal.status, { 'content-type': 'application/json' }).end(JSON.stringify(refusal.body));
      return;
    }
    serial += 1;
    const answer = decideAnswer(turn, state.script, serial);
    exchange.answer = answer;
    const text = render(turn.protocol, answer, turn, serial);
    exchange.responseText = text;
    response.writeHead(200, { 'content-type': turn.stream ? 'text/event-stream' : 'application/json', 'cache-control': 'no-cache' });
    response.end(text);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function render(protocol: UpstreamProtocol, answer: ScriptedAnswer, turn: UpstreamTurn, serial: number): string {
  switch (protocol) {
    case 'anthropic-messages':
      return renderAnthropic(answer, turn.model, serial, turn.stream);
    case 'openai-chat':
      return renderOpenAIChat(answer, turn.model, serial, turn.stream, turn.body.stream_options?.include_usage === true);
    case 'openai-responses':
      return renderOpenAIResponses(answer, turn.model, serial, turn.stream);
    case 'gemini':
      return renderGemini(answer, turn.model, serial, turn.stream);
    default: {
      const never: never = protocol;
      throw new Error(`unknown protocol ${String(never)}`);
    }
  }
}
