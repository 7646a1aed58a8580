// The hot path, in one place: the files a stream runs for every upstream event (SSE parse, stream
// decoders, collector, stream encoders), and the per-stream plumbing around them that the same
// reads go through (upstream call, passthrough source, part source, client stream). These are
// the files whose code runs tens of thousands of times a second; the Node 20 engine rules below
// apply to them, and `test/source-conventions.test.ts` checks them. Elsewhere the rules are
// advice, not law: a config loader or a CLI command pays nothing measurable for a spread.
//
// A file joins this list when it starts to run per event or per network read of a stream (and
// then comes with its numbers from `npm run bench` and `bench/stream-codecs.mjs`).

export const HOT_PATH_FILES = [
  // SSE: parse every upstream read, write every client event.
  'src/sse/parse-sse.ts',
  'src/sse/sse-event.ts',
  'src/sse/write-sse.ts',
  // Stream decoders: upstream events → core stream parts.
  'src/protocols/anthropic-messages/decode-stream.ts',
  'src/protocols/gemini/decode-stream.ts',
  'src/protocols/gemini/decode-stream-candidate.ts',
  'src/protocols/gemini/assemble-partial-args.ts',
  'src/protocols/openai-chat/decode-stream.ts',
  'src/protocols/openai-responses/decode-stream.ts',
  'src/protocols/openai-responses/read-stream-items.ts',
  'src/protocols/parse-event-data.ts',
  // Collector: every part of every stream, for usage, the log and recovery records.
  'src/core/collect-stream.ts',
  'src/core/delta-text.ts',
  // Stream encoders: core stream parts → the client's SSE text.
  'src/protocols/anthropic-messages/encode-stream.ts',
  'src/protocols/gemini/encode-stream.ts',
  'src/protocols/openai-chat/encode-stream.ts',
  'src/protocols/openai-responses/encode-stream.ts',
  'src/protocols/openai-responses/write-stream-item.ts',
  // Around them, per read: the upstream's bytes in, the client's bytes out.
  'src/providers/upstream-call.ts',
  'src/gateway/passthrough-source.ts',
  'src/gateway/part-source.ts',
  'src/gateway/stream-to-client.ts',
  'src/gateway/client-stream.ts',
];

/**
 * The engine rules of the hot path, each with the measurement that justifies it (Node 20.20, the
 * project's 2-core machine; bench/FINDINGS.md has the context).
 */
export const HOT_PATH_RULES = {
  'leading-spread':
    'No object literal starts with a spread and has more members after it: on Node 20 (V8 11.3) each such object gets a hidden class of its own, ' +
    'built in the runtime (99,992 maps in 100,000 objects; `{ ...a, k: 1 }` 336 ns against 14 on Node 24, `{ k: 1, ...a }` 30 ns). ' +
    'Rewriting them took 0.83–0.87× of the CPU per non-stream request at c=10.',
  'literal-accessor':
    'No getter or setter in an object literal: V8 makes such a literal in dictionary mode, ~300 ns on Node 20 and 24 alike; ' +
    'one getter was the last hidden class a warm request made (bench/hidden-classes.mjs: 5–9 per request before these rules, 0.00–0.01 after).',
  'text-decoder':
    'No TextDecoder: per upstream read, a streaming TextDecoder cost 3× what `node:string_decoder` does (bench/stream-codecs.mjs, part of the 105 → 52 µs per Chat → Responses stream).',
  'node-stream':
    'No node:stream (Readable, Transform, PassThrough) between the upstream and the client: bodies from undici\'s parser through a dispatch handler ' +
    'took the CPU per stream to 0.79–0.88× of `Pool.request`\'s Readable, and piping into the response replaced a PassThrough and a pipeline.',
  'abort-controller':
    'No AbortController: Node 20\'s AbortController/EventTarget was the costliest fixed item of a request; without it (and with `data` events) ' +
    'a passthrough request went from 84 to 74 µs of CPU.',
} as const;

export type HotPathRule = keyof typeof HOT_PATH_RULES;
