import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import type { generateText, LanguageModel } from 'ai';
import type { Protocol } from '../../src/core/protocol.js';

type ProviderOptions = NonNullable<Parameters<typeof generateText>[0]['providerOptions']>;

/** One HTTP exchange between an AI SDK provider and the gateway, as the provider's fetch saw it. */
export interface GatewayExchange {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  status: number;
  headers: Headers;
}

/** A Vercel AI SDK provider pointed at the gateway, speaking one of the gateway's client protocols. */
export interface AiSdkClient {
  /** How the provider is created, for test names (`@ai-sdk/openai .chat()`). */
  name: string;
  /** The protocol the provider speaks to the gateway. */
  protocol: Protocol;
  /** The language model for a gateway model name (`mock-echo`, `up-chat/text`). */
  model(gatewayModel: string): LanguageModel;
  /**
   * Provider options a stateless gateway needs. The Responses provider stores responses by default
   * (`store: true`) and then sends earlier output back as `item_reference`s to stored items, which
   * the gateway (storing nothing) answers with a 400; `store: false` makes it send the items whole.
   */
  providerOptions: ProviderOptions;
  /** Every exchange with the gateway so far, oldest first. */
  exchanges: GatewayExchange[];
}

const STATELESS_RESPONSES: ProviderOptions = { openai: { store: false } };

/** Each way of creating an AI SDK model in these tests, and the protocol it speaks to the gateway. */
export const AI_SDK_CLIENT_PROTOCOL = {
  '@ai-sdk/openai .chat()': 'openai-chat',
  '@ai-sdk/openai .responses()': 'openai-responses',
  // `openai(model)` is a Responses model in AI SDK 5 and later.
  '@ai-sdk/openai default': 'openai-responses',
  '@ai-sdk/anthropic': 'anthropic-messages',
  '@ai-sdk/google': 'gemini',
} as const satisfies Record<string, Protocol>;
export type AiSdkClientName = keyof typeof AI_SDK_CLIENT_PROTOCOL;
export const AI_SDK_CLIENT_NAMES = Object.keys(AI_SDK_CLIENT_PROTOCOL) as AiSdkClientName[];

/** The gateway path each client protocol posts to (the Gemini ones also name the model and mode). */
export const CLIENT_PATH: Record<Protocol, RegExp> = {
  'openai-chat': /^\/v1\/chat\/completions$/,
  'openai-responses': /^\/v1\/responses$/,
  'anthropic-messages': /^\/v1\/messages$/,
  gemini: /^\/v1beta\/models\/.+:(generateContent|streamGenerateContent\?alt=sse)$/,
};

/**
 * Creates one AI SDK provider against the gateway at `gatewayUrl` (http://127.0.0.1:port). Base
 * URLs follow each SDK's convention: the OpenAI and Anthropic providers append `/chat/completions`,
 * `/responses` and `/messages` to a base that ends in `/v1`; the Google provider appends
 * `/models/{model}:generateContent` to a base that ends in `/v1beta`.
 */
export function createAiSdkClient(name: AiSdkClientName, gatewayUrl: string): AiSdkClient {
  const exchanges: GatewayExchange[] = [];
  const fetch = createRecordingFetch(gatewayUrl, exchanges);
  const client = { name, protocol: AI_SDK_CLIENT_PROTOCOL[name], providerOptions: {}, exchanges };
  switch (name) {
    case '@ai-sdk/openai .chat()': {
      const openai = createOpenAI({ baseURL: `${gatewayUrl}/v1`, apiKey: 'sk-test', fetch });
      return { ...client, model: (id) => openai.chat(id) };
    }
    case '@ai-sdk/openai .responses()': {
      const openai = createOpenAI({ baseURL: `${gatewayUrl}/v1`, apiKey: 'sk-test', fetch });
      return { ...client, model: (id) => openai.responses(id), providerOptions: STATELESS_RESPONSES };
    }
    case '@ai-sdk/openai default': {
      const openai = createOpenAI({ baseURL: `${gatewayUrl}/v1`, apiKey: 'sk-test', fetch });
      return { ...client, model: (id) => openai(id), providerOptions: STATELESS_RESPONSES };
    }
    case '@ai-sdk/anthropic': {
      const anthropic = createAnthropic({ baseURL: `${gatewayUrl}/v1`, apiKey: 'sk-test', fetch });
      return { ...client, model: (id) => anthropic(id) };
    }
    case '@ai-sdk/google': {
      const google = createGoogleGenerativeAI({ baseURL: `${gatewayUrl}/v1beta`, apiKey: 'test-key', fetch });
      // The Google provider takes an id with a slash as a whole resource path (`tunedModels/x`), so
      // `provider/model` needs the `models/` prefix that it would otherwise add itself.
      return { ...client, model: (id) => google(id.includes('/') ? `models/${id}` : id) };
    }
  }
}

/** `fetch` that only reaches the gateway (loopback) and records each exchange. */
function createRecordingFetch(gatewayUrl: string, exchanges: GatewayExchange[]): typeof globalThis.fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== new URL(gatewayUrl).origin) throw new Error(`test traffic must stay on the gateway, not ${url.origin}`);
    const response = await globalThis.fetch(input, init);
    exchanges.push({ method: init?.method ?? 'GET', path: url.pathname + url.search, status: response.status, headers: response.headers });
    return response;
  };
}
