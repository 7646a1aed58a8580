import type { AssistantPart } from '../../src/core/content-part.js';
import type { GenerateRequest } from '../../src/core/generate-request.js';
// The built-in protocols, each with its recordings.
import type { UpstreamProtocol as Protocol } from './fake-protocol-upstream.js';
import type { StreamPart } from '../../src/core/stream-part.js';
import type { Usage } from '../../src/core/usage.js';
import { getCodec } from '../../src/protocols/codecs.js';
import { FIXTURE_FILES } from './fake-protocol-upstream.js';
import {
  DOCUMENTED_USAGE_ANSWERS,
  buildNextTurn,
  collect,
  decodeRecordedAnswer,
  decodeRecordedStream,
  encodeForClient,
  passStreamThroughClient,
  passThroughClient,
  recordedAnswers,
} from './response-round-trip.js';
import { decodeClientRequest, translateRequest, warningKey } from './translate-request.js';

/**
 * The response rows of docs/translation.md: for one client × upstream pair, what the client gets
 * of something the upstream sends, worked out by passing recorded (or documented) upstream answers
 * through the codecs. Symbols as in the doc: `✓` arrives as sent, `~` arrives changed, `✗` cannot
 * arrive, `—` the upstream never sends it, `⚠` a warning on the client's next turn (with `keys`).
 */
export interface ResponseOutcome {
  symbol: '✓' | '~' | '✗' | '—' | '⚠';
  keys?: string[];
}

/** The request each client made, as far as the answer depends on it (Gemini clients asked for thoughts). */
function clientRequest(client: Protocol): GenerateRequest {
  const bodies: Record<Protocol, Record<string, unknown>> = {
    'openai-chat': { model: 'm', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Hi' }] },
    'anthropic-messages': { model: 'm', max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }] },
    'openai-responses': { model: 'm', input: 'Hi' },
    gemini: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generationConfig: { thinkingConfig: { includeThoughts: true } } },
  };
  return decodeClientRequest(client, bodies[client]);
}

const PARALLEL_TOOL_CALLS: Record<Protocol, string> = {
  'openai-chat': 'parallel-tool-calls.json',
  'anthropic-messages': 'parallel-tool-calls.json',
  'openai-responses': 'parallel-tool-calls.json',
  gemini: 'parallel-tool-calls.json',
};
/** Answers with reasoning text; OpenAI Chat returns none. */
const REASONING: Partial<Record<Protocol, string>> = {
  'anthropic-messages': 'thinking.json',
  'openai-responses': 'reasoning-summary.json',
  gemini: 'thinking.json',
};
/** Streams that reason, then call a tool, with the vendor's signature on the reasoning or the call. */
const REASONING_THEN_TOOL_CALL: Partial<Record<Protocol, string>> = {
  'anthropic-messages': 'thinking-tool-call-stream.sse',
  'openai-responses': 'reasoning-summary-tool-call-stream.sse',
  gemini: 'thinking-tool-call-stream.sse',
};

type ResponseFeature = (client: Protocol, upstream: Protocol) => ResponseOutcome;

const toolCallsOf = (content: AssistantPart[]) => content.flatMap((part) => (part.type === 'tool-call' ? [{ name: part.toolName, input: JSON.parse(part.input || '{}') }] : []));
const reasoningTextOf = (content: AssistantPart[]) => content.flatMap((part) => (part.type === 'reasoning' && part.text ? [part.text] : [])).join('');

/** One usage count, from the upstream's documented answer to what the client read. */
function usageCount(read: (usage: Usage) => number | undefined): ResponseFeature {
  return (client, upstream) => {
    const sent = getCodec(upstream).decodeResponse(DOCUMENTED_USAGE_ANSWERS[upstream]);
    if (!read(sent.usage)) return { symbol: '—' };
    const received = passThroughClient(client, sent, clientRequest(client));
    return { symbol: read(received.usage) === read(sent.usage) ? '✓' : '✗' };
  };
}

/** Argument deltas per tool call, in order. */
function argumentPieces(parts: StreamPart[]): number[] {
  const counts = new Map<string, number>();
  for (const part of parts) {
    if (part.type === 'tool-input-start') counts.set(part.id, 0);
    if (part.type === 'tool-input-delta' && part.delta !== '') counts.set(part.id, (counts.get(part.id) ?? 0) + 1);
  }
  return [...counts.values()];
}

/** The vendor's own signature in an answer: what must come back for the next turn to verify. */
function signatureOf(upstream: Protocol, content: AssistantPart[]): string {
  for (const part of content) {
    if (upstream === 'anthropic-messages' && part.type === 'reasoning' && part.signature) return part.signature;
    const own = part.protocolMetadata?.[upstream];
    if (upstream === 'openai-responses' && part.type === 'reasoning' && typeof own?.encryptedContent === 'string') return own.encryptedContent;
    if (upstream === 'gemini' && part.type === 'tool-call' && typeof own?.thoughtSignature === 'string') return own.thoughtSignature;
  }
  throw new Error(`no ${upstream} signature in the recorded answer`);
}

export const RESPONSE_FEATURES: Record<string, ResponseFeature> = {
  'finish reasons': (client, upstream) => {
    let stopSequenceLost = false;
    for (const file of recordedAnswers(upstream)) {
      const sent = decodeRecordedAnswer(upstream, file);
      const received = passThroughClient(client, sent, clientRequest(client));
      const [before, after] = [sent.choices[0].finishReason, received.choices[0].finishReason];
      if (before.unified !== after.unified) return { symbol: '✗' };
      if (before.stopSequence !== undefined && after.stopSequence !== before.stopSequence) stopSequenceLost = true;
    }
    return { symbol: stopSequenceLost ? '~' : '✓' };
  },
  'usage: input and output totals': (client, upstream) => {
    const sent = getCodec(upstream).decodeResponse(DOCUMENTED_USAGE_ANSWERS[upstream]);
    const received = passThroughClient(client, sent, clientRequest(client));
    const same = received.usage.input.total === sent.usage.input.total && received.usage.output.total === sent.usage.output.total;
    return { symbol: same ? '✓' : '✗' };
  },
  'usage: cache reads': usageCount((usage) => usage.input.cacheRead),
  'usage: cache writes': usageCount((usage) => usage.input.cacheWrite),
  'usage: reasoning tokens': usageCount((usage) => usage.output.reasoning),
  'streamed tool arguments': (client, upstream) => {
    const sent = decodeRecordedStream(upstream, FIXTURE_FILES[upstream].tool.stream);
    const received = passStreamThroughClient(client, sent, clientRequest(client));
    const [before, after] = [collect(sent).choices[0].content, collect(received).choices[0].content];
    if (JSON.stringify(toolCallsOf(after)) !== JSON.stringify(toolCallsOf(before))) return { symbol: '✗' };
    return { symbol: JSON.stringify(argumentPieces(received)) === JSON.stringify(argumentPieces(sent)) ? '✓' : '~' };
  },
  'parallel tool calls': (client, upstream) => {
    const sent = decodeRecordedAnswer(upstream, PARALLEL_TOOL_CALLS[upstream]);
    const received = passThroughClient(client, sent, clientRequest(client));
    const calls = toolCallsOf(sent.choices[0].content);
    return { symbol: calls.length > 1 && JSON.stringify(toolCallsOf(received.choices[0].content)) === JSON.stringify(calls) ? '✓' : '✗' };
  },
  'reasoning text': (client, upstream) => {
    const file = REASONING[upstream];
    if (!file) return { symbol: '—' };
    const sent = decodeRecordedAnswer(upstream, file);
    const received = passThroughClient(client, sent, clientRequest(client));
    return { symbol: reasoningTextOf(received.choices[0].content) === reasoningTextOf(sent.choices[0].content) ? '✓' : '✗' };
  },
  'reasoning signature, sent back on the next turn': (client, upstream) => {
    const file = REASONING_THEN_TOOL_CALL[upstream];
    if (!file) return { symbol: '—' };
    const sent = collect(decodeRecordedStream(upstream, file));
    const signature = signatureOf(upstream, sent.choices[0].content);
    const answer = encodeForClient(client, sent, clientRequest(client));
    const outcome = translateRequest(client, upstream, buildNextTurn(client, answer, 'sunny'));
    if (outcome.kind === 'rejected') return { symbol: '✗' };
    if (outcome.warnings.length > 0) return { symbol: '⚠', keys: outcome.warnings.map(warningKey) };
    return { symbol: JSON.stringify(outcome.upstreamBody).includes(signature) ? '✓' : '~' };
  },
};
