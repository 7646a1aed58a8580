#!/usr/bin/env node
// The floor of translation: the thinnest translating proxy there is, for the two translated paths
// of the benchmark. It is the reference proxy (node:http in, one undici Pool out, same plumbing)
// plus only what any translator must do: parse the client's body and write the upstream's, and
// for each upstream read split the SSE records, JSON.parse each one, build the client's event and
// JSON.stringify it, one write per read. No validation, no routing, no usage kept past the
// response, no recording, no error translation, two fixed protocol pairs. Not a gateway: a
// measure of what translating costs on the machine, next to the reference (bench/README.md).
//
//   POST /v1/chat/completions   Chat client → Gemini upstream   (the path `chat-to-gemini`)
//   POST /v1/messages           Anthropic client → Chat upstream (the path `anthropic-to-chat`)
//
//   node bench/thin-translator.mjs --upstream http://127.0.0.1:PORT [--port 0]
import { createServer } from 'node:http';
import { Pool } from 'undici';
import { failResponse, readProxyArguments, serveUntilStopped } from './lib/proxy-process.mjs';

const { upstream, port } = readProxyArguments('bench/thin-translator.mjs');
const pool = new Pool(upstream, { connections: null, keepAliveTimeout: 60_000 });

const textOf = (content) => (typeof content === 'string' ? content : content.map((block) => block.text ?? '').join(''));

/** Chat client → Gemini upstream. */
const chatToGemini = {
  upstreamRequest(body) {
    const system = body.messages.filter((message) => message.role === 'system');
    return {
      path: `/v1beta/models/${body.model}:${body.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'upstream-key' },
      body: {
        contents: body.messages
          .filter((message) => message.role !== 'system')
          .map((message) => ({ role: message.role === 'assistant' ? 'model' : 'user', parts: [{ text: textOf(message.content) }] })),
        ...(system.length > 0 && { systemInstruction: { parts: system.map((message) => ({ text: textOf(message.content) })) } }),
        ...(body.tools && { tools: [{ functionDeclarations: body.tools.map(({ function: tool }) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })) }] }),
        generationConfig: { maxOutputTokens: body.max_tokens },
      },
    };
  },
  json(answer, body) {
    const candidate = answer.candidates?.[0];
    const usage = answer.usageMetadata ?? {};
    return {
      id: `chatcmpl-${answer.responseId}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: candidate?.content?.parts?.map((part) => part.text ?? '').join('') ?? '' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: usage.promptTokenCount ?? 0, completion_tokens: usage.candidatesTokenCount ?? 0, total_tokens: usage.totalTokenCount ?? 0 },
    };
  },
  stream(body) {
    const id = `chatcmpl-${Date.now().toString(36)}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (choices, usage) => `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices, ...(usage && { usage }) })}\n\n`;
    let usage = {};
    return {
      event(data) {
        const record = JSON.parse(data);
        if (record.usageMetadata) usage = record.usageMetadata;
        const candidate = record.candidates?.[0];
        if (!candidate) return '';
        const content = candidate.content?.parts?.map((part) => part.text ?? '').join('') ?? '';
        return chunk([{ index: 0, delta: { content }, finish_reason: candidate.finishReason ? 'stop' : null }]);
      },
      end() {
        return `${chunk([], { prompt_tokens: usage.promptTokenCount ?? 0, completion_tokens: usage.candidatesTokenCount ?? 0, total_tokens: usage.totalTokenCount ?? 0 })}data: [DONE]\n\n`;
      },
    };
  },
};

/** Anthropic client → Chat upstream. */
const anthropicToChat = {
  upstreamRequest(body) {
    return {
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', authorization: 'Bearer upstream-key' },
      body: {
        model: body.model,
        messages: [...(body.system ? [{ role: 'system', content: textOf(body.system) }] : []), ...body.messages.map((message) => ({ role: message.role, content: textOf(message.content) }))],
        ...(body.tools && { tools: body.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.input_schema } })) }),
        max_tokens: body.max_tokens,
        ...(body.stream && { stream: true, stream_options: { include_usage: true } }),
      },
    };
  },
  json(answer, body) {
    const choice = answer.choices?.[0];
    return {
      id: `msg_${answer.id}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [{ type: 'text', text: choice?.message?.content ?? '' }],
      stop_reason: choice?.finish_reason === 'length' ? 'max_tokens' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: answer.usage?.prompt_tokens ?? 0, output_tokens: answer.usage?.completion_tokens ?? 0 },
    };
  },
  stream(body) {
    const event = (type, payload) => `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
    let started = false;
    let stopReason = 'end_turn';
    let usage = {};
    return {
      event(data) {
        if (data === '[DONE]') return '';
        const record = JSON.parse(data);
        if (record.usage) usage = record.usage;
        let out = '';
        if (!started) {
          started = true;
          out += event('message_start', {
            message: { id: `msg_${record.id}`, type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } },
          });
          out += event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        }
        const choice = record.choices?.[0];
        if (choice?.delta?.content) out += event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: choice.delta.content } });
        if (choice?.finish_reason === 'length') stopReason = 'max_tokens';
        return out;
      },
      end() {
        return (
          event('content_block_stop', { index: 0 }) +
          event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { input_tokens: usage.prompt_tokens ?? 0, output_tokens: usage.completion_tokens ?? 0 } }) +
          event('message_stop', {})
        );
      },
    };
  },
};

const ROUTES = { '/v1/chat/completions': chatToGemini, '/v1/messages': anthropicToChat };

/** SSE records as they arrive: complete records go to `onData` (their `data:` text), the rest waits. */
function createRecordSplitter(onData) {
  let pending = '';
  return (text) => {
    pending += text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
    let out = '';
    let end;
    while ((end = pending.indexOf('\n\n')) >= 0) {
      const record = pending.slice(0, end);
      pending = pending.slice(end + 2);
      let from = 5;
      if (!record.startsWith('data:')) {
        const at = record.indexOf('\ndata:');
        if (at < 0) continue; // a comment or an event without data
        from = at + 6;
      }
      const lineEnd = record.indexOf('\n', from);
      out += onData(record.slice(from, lineEnd < 0 ? undefined : lineEnd).trim());
    }
    return out;
  };
}

const server = createServer((request, response) => {
  const route = ROUTES[request.url];
  if (!route || request.method !== 'POST') {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"error":{"message":"not found"}}');
    return;
  }
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const call = route.upstreamRequest(body);
    const abort = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    pool
      .request({ path: call.path, method: 'POST', headers: call.headers, body: JSON.stringify(call.body), signal: abort.signal })
      .then(async ({ statusCode, body: upstreamBody }) => {
        if (!body.stream) {
          const answer = JSON.parse(await upstreamBody.text());
          response.writeHead(statusCode, { 'content-type': 'application/json' });
          response.end(JSON.stringify(route.json(answer, body)));
          return;
        }
        response.writeHead(statusCode, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const translator = route.stream(body);
        const split = createRecordSplitter((data) => translator.event(data));
        upstreamBody.on('data', (chunk) => {
          const out = split(chunk.toString('utf8'));
          if (out) response.write(out);
        });
        upstreamBody.on('end', () => response.end(translator.end()));
        upstreamBody.on('error', () => response.destroy());
      })
      .catch(() => failResponse(response));
  });
});
serveUntilStopped(server, pool, port);
