import type { FakeReply, RecordedRequest } from './fake-upstream.js';
import { identifyRequest, replyFromFixtures, type UpstreamProtocol } from './fake-protocol-upstream.js';
import { readFixture } from './fixtures.js';

/** A recorded non-stream answer of each protocol whose usage reports prompt-cache reads (and writes). */
export const CACHED_USAGE_FILES: Record<UpstreamProtocol, string> = {
  'openai-chat': 'cached-tokens.json',
  'anthropic-messages': 'cache-read-write.json',
  'openai-responses': 'cached-tokens.json',
  gemini: 'cached-content.json',
};

/** Token counts of a recorded answer, read with plain code independent of the gateway (docs/protocols.md §7.6). */
export interface UsageDetails {
  /** Input including cached tokens. */
  input: number;
  cacheRead: number;
  /** Undefined where the protocol has no such count. */
  cacheWrite: number | undefined;
  /** Output including reasoning tokens. */
  output: number;
  reasoning: number | undefined;
}

export function readUsageDetails(protocol: UpstreamProtocol, file: string): UsageDetails {
  const body = JSON.parse(readFixture(protocol, file));
  switch (protocol) {
    case 'openai-chat': {
      const usage = body.usage;
      return {
        input: usage.prompt_tokens,
        cacheRead: usage.prompt_tokens_details?.cached_tokens ?? 0,
        cacheWrite: usage.prompt_tokens_details?.cache_write_tokens,
        output: usage.completion_tokens,
        reasoning: usage.completion_tokens_details?.reasoning_tokens,
      };
    }
    case 'anthropic-messages': {
      const usage = body.usage;
      const cacheRead = usage.cache_read_input_tokens ?? 0;
      const cacheWrite = usage.cache_creation_input_tokens ?? 0;
      return { input: usage.input_tokens + cacheRead + cacheWrite, cacheRead, cacheWrite, output: usage.output_tokens, reasoning: undefined };
    }
    case 'openai-responses': {
      const usage = body.usage;
      return {
        input: usage.input_tokens,
        cacheRead: usage.input_tokens_details?.cached_tokens ?? 0,
        cacheWrite: usage.input_tokens_details?.cache_write_tokens,
        output: usage.output_tokens,
        reasoning: usage.output_tokens_details?.reasoning_tokens,
      };
    }
    case 'gemini': {
      const usage = body.usageMetadata;
      return {
        input: usage.promptTokenCount,
        cacheRead: usage.cachedContentTokenCount ?? 0,
        cacheWrite: undefined,
        output: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
        reasoning: usage.thoughtsTokenCount,
      };
    }
  }
}

/** Like replyFromFixtures, but a model named `cached` gets the answer with prompt-cache usage. */
export function replyWithCachedUsage(request: RecordedRequest): FakeReply {
  const identified = identifyRequest(request);
  if (identified.model !== 'cached' || identified.stream) return replyFromFixtures(request);
  return { json: readFixture(identified.protocol, CACHED_USAGE_FILES[identified.protocol]) };
}
