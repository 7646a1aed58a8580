import { generateText, jsonSchema, stepCountIs, streamText, tool, type ToolSet } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_SDK_CLIENT_NAMES, AI_SDK_CLIENT_PROTOCOL, CLIENT_PATH, createAiSdkClient, type AiSdkClient } from './helpers/ai-sdk-clients.js';
import { CACHED_USAGE_FILES, readUsageDetails, replyWithCachedUsage } from './helpers/cached-usage-fixtures.js';
import { createUpstreamProviders, FIXTURE_FILES, UPSTREAM_PROTOCOLS, UPSTREAM_PROVIDER_ID, fixtureToolCallIds, identifyRequest, type UpstreamProtocol } from './helpers/fake-protocol-upstream.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { expectFixture } from './helpers/fixture-expectations.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

/**
 * The Vercel AI SDK (`ai` with its OpenAI, Anthropic and Google providers) as a second set of
 * clients of the gateway: generateText, streamText and a tool call with its follow-up step, against
 * upstreams of every protocol replaying recorded traffic, and against the gateway's mock models.
 */
const QUESTION = 'What is the weather?';
const TOOL_OUTPUT = 'sunny, 21 degrees';

let upstream: FakeUpstream;
let gateway: TestGateway;
const logWarnings = globalThis.AI_SDK_LOG_WARNINGS;

beforeAll(async () => {
  // The Anthropic provider warns on the console about model names it does not know (ours).
  globalThis.AI_SDK_LOG_WARNINGS = false;
  upstream = await startFakeUpstream(replyWithCachedUsage);
  gateway = await startTestGateway({
    providers: createUpstreamProviders(upstream.url),
  });
});
afterAll(async () => {
  globalThis.AI_SDK_LOG_WARNINGS = logWarnings;
  await gateway?.close();
  await upstream?.close();
});

interface ExecutedCall {
  name: string;
  args: unknown;
}

/** Tools named after the calls a recorded answer makes; each notes its input and answers TOOL_OUTPUT. */
function createRecordingTools(names: string[], executed: ExecutedCall[]): ToolSet {
  const tools: ToolSet = {};
  for (const name of new Set(names)) {
    tools[name] = tool({
      description: `Looks up ${name}.`,
      inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object', properties: {}, additionalProperties: true }),
      execute: async (input) => {
        executed.push({ name, args: input });
        return TOOL_OUTPUT;
      },
    });
  }
  return tools;
}

/**
 * Every request of the client went to its protocol's endpoint, was answered with 200, and the
 * gateway had nothing to warn about: what the AI SDK sends translates fully.
 */
function expectCleanExchanges(client: AiSdkClient, count: number): void {
  expect(client.exchanges).toHaveLength(count);
  for (const exchange of client.exchanges) {
    expect(exchange.path).toMatch(CLIENT_PATH[client.protocol]);
    expect(exchange.status).toBe(200);
    expect(exchange.headers.get('x-switchyard-warnings')).toBeNull();
  }
}

describe.each(AI_SDK_CLIENT_NAMES)('%s', (clientName) => {
  describe.each(UPSTREAM_PROTOCOLS)('→ %s upstream (recorded traffic)', (upstreamProtocol) => {
    const provider = UPSTREAM_PROVIDER_ID[upstreamProtocol];
    const files = FIXTURE_FILES[upstreamProtocol];

    it('generateText returns the text, usage and finish reason', async () => {
      const client = createAiSdkClient(clientName, gateway.url);
      const result = await generateText({ model: client.model(`${provider}/text`), prompt: QUESTION, maxRetries: 0 });
      const expected = expectFixture(upstreamProtocol, files.text.json);
      expect(result.text).toBe(expected.text);
      expect(result.toolCalls).toEqual([]);
      expect(result.finishReason).toBe('stop');
      expect(result.usage.inputTokens).toBe(expected.inputTokens);
      expect(result.usage.outputTokens).toBe(expected.outputTokens);
      expectCleanExchanges(client, 1);
      expect(client.exchanges[0].headers.get('x-switchyard-upstream')).toBe(`${provider}/text`);
    });

    it('generateText reports cache reads, cache writes and reasoning tokens as the SDK reads them', async () => {
      const client = createAiSdkClient(clientName, gateway.url);
      const { usage } = await generateText({ model: client.model(`${provider}/cached`), prompt: QUESTION, maxRetries: 0 });
      const expected = readUsageDetails(upstreamProtocol, CACHED_USAGE_FILES[upstreamProtocol]);
      expect(usage.inputTokens).toBe(expected.input);
      expect(usage.inputTokenDetails.cacheReadTokens).toBe(expected.cacheRead);
      // Gemini has no count of cache writes (docs/protocols.md §7.6): there they are plain input.
      expect(usage.inputTokenDetails.cacheWriteTokens ?? 0).toBe(client.protocol === 'gemini' ? 0 : (expected.cacheWrite ?? 0));
      expect(usage.outputTokens).toBe(expected.output);
      expect(usage.outputTokenDetails.reasoningTokens ?? 0).toBe(expected.reasoning ?? 0);
      expect(usage.totalTokens).toBe(expected.input + expected.output);
      expectCleanExchanges(client, 1);
    });

    it('streamText streams the text, usage and finish reason', async () => {
      const client = createAiSdkClient(clientName, gateway.url);
      const result = streamText({ model: client.model(`${provider}/text`), prompt: QUESTION, maxRetries: 0, onError: () => {} });
      const deltas: string[] = [];
      for await (const delta of result.textStream) deltas.push(delta);
      const expected = expectFixture(upstreamProtocol, files.text.stream);
      expect(deltas.join('')).toBe(expected.text);
      expect(await result.text).toBe(expected.text);
      expect(await result.finishReason).toBe('stop');
      const usage = await result.usage;
      expect(usage.inputTokens).toBe(expected.inputTokens);
      expect(usage.outputTokens).toBe(expected.outputTokens);
      expectCleanExchanges(client, 1);
    });

    it('generateText runs a tool call, then answers in a second step with the result', async () => {
      const client = createAiSdkClient(clientName, gateway.url);
      const expected = expectFixture(upstreamProtocol, files.tool.json);
      const executed: ExecutedCall[] = [];
      const before = upstream.requests.length;
      const result = await generateText({
        model: client.model(`${provider}/tool`),
        prompt: QUESTION,
        tools: createRecordingTools(expected.toolCalls.map((call) => call.name), executed),
        stopWhen: stepCountIs(2),
        providerOptions: client.providerOptions,
        maxRetries: 0,
      });
      expect(result.steps).toHaveLength(2);
      const [first, second] = result.steps;
      expect(first.finishReason).toBe('tool-calls');
      expect(first.toolCalls.map((call) => ({ name: call.toolName, args: call.input }))).toEqual(expected.toolCalls);
      expect(executed).toEqual(expected.toolCalls);
      expect(first.toolResults.map((toolResult) => toolResult.output)).toEqual(expected.toolCalls.map(() => TOOL_OUTPUT));

      // The follow-up turn carried each result under the id (Gemini: the name) of its call.
      const sent = identifyRequest(upstream.requests[before + 1]);
      expect(sent.toolResults.map((toolResult) => toolResult.id)).toEqual(fixtureToolCallIds(upstreamProtocol, false));
      for (const toolResult of sent.toolResults) expect(toolResult.content).toContain(TOOL_OUTPUT);

      const answer = expectFixture(upstreamProtocol, files.text.json);
      expect(second.text).toBe(answer.text);
      expect(result.text).toBe(answer.text);
      expect(result.finishReason).toBe('stop');
      expect(result.totalUsage.inputTokens).toBe(expected.inputTokens + answer.inputTokens);
      expect(result.totalUsage.outputTokens).toBe(expected.outputTokens + answer.outputTokens);
      expectCleanExchanges(client, 2);
    });

    it('streamText streams a tool call, then answers in a second step with the result', async () => {
      const client = createAiSdkClient(clientName, gateway.url);
      const expected = expectFixture(upstreamProtocol, files.tool.stream);
      const executed: ExecutedCall[] = [];
      const before = upstream.requests.length;
      const result = streamText({
        model: client.model(`${provider}/tool`),
        prompt: QUESTION,
        tools: createRecordingTools(expected.toolCalls.map((call) => call.name), executed),
        stopWhen: stepCountIs(2),
        providerOptions: client.providerOptions,
        maxRetries: 0,
        onError: () => {},
      });
      let inputDeltas = 0;
      for await (const part of result.fullStream) {
        if (part.type === 'tool-input-delta') inputDeltas += 1;
        if (part.type === 'error') throw part.error;
      }
      const steps = await result.steps;
      expect(steps).toHaveLength(2);
      expect(steps[0].finishReason).toBe('tool-calls');
      expect(steps[0].toolCalls.map((call) => ({ name: call.toolName, args: call.input }))).toEqual(expected.toolCalls);
      expect(executed).toEqual(expected.toolCalls);
      expect(inputDeltas).toBeGreaterThan(0);

      const sent = identifyRequest(upstream.requests[before + 1]);
      expect(sent.toolResults.map((toolResult) => toolResult.id)).toEqual(fixtureToolCallIds(upstreamProtocol, true));
      for (const toolResult of sent.toolResults) expect(toolResult.content).toContain(TOOL_OUTPUT);

      expect(await result.text).toBe(expectFixture(upstreamProtocol, files.text.stream).text);
      expect(await result.finishReason).toBe('stop');
      expectCleanExchanges(client, 2);
    });
  });

  describe('→ mock models', () => {
    it('mock-echo: generateText answers with the prompt and counts usage', async () => {
      const client = createAiSdkClient(clientName, gateway.url);
      const result = await generateText({ model: client.model('mock-echo'), prompt: 'Hello from the AI SDK!', maxRetries: 0 });
      expect(result.text).toBe('Hello from the AI SDK!');
      expect(result.finishReason).toBe('stop');
      expect(result.usage.inputTokens).toBeGreaterThan(0);
      expect(result.usage.outputTokens).toBeGreaterThan(0);
      expect(result.usage.totalTokens).toBe(result.usage.inputTokens! + result.usage.outputTokens!);
      expectCleanExchanges(client, 1);
      expect(client.exchanges[0].headers.get('x-switchyard-upstream')).toBe('mock/mock-echo');
    });

    it('mock-echo: streamText streams the prompt back in pieces', async () => {
      const client = createAiSdkClient(clientName, gateway.url);
      const result = streamText({ model: client.model('mock-echo'), system: 'Be brief.', prompt: 'One two three four five.', maxRetries: 0, onError: () => {} });
      const deltas: string[] = [];
      for await (const delta of result.textStream) deltas.push(delta);
      expect(deltas.join('')).toBe('One two three four five.');
      expect(deltas.length).toBeGreaterThan(1);
      expect(await result.finishReason).toBe('stop');
      const usage = await result.usage;
      expect(usage.outputTokens).toBeGreaterThan(0);
      expect(usage.totalTokens).toBe(usage.inputTokens! + usage.outputTokens!);
      expectCleanExchanges(client, 1);
    });

    it('mock-tools: generateText calls the tool with schema-valid arguments, then answers with its result', async () => {
      const client = createAiSdkClient(clientName, gateway.url);
      const inputs: unknown[] = [];
      const result = await generateText({
        model: client.model('mock-tools'),
        prompt: 'What is the weather in Paris?',
        tools: {
          weather: tool({
            description: 'The weather in a city.',
            // Keywords that survive the Google provider's conversion to Gemini's schema subset
            // (it leaves out `minimum`, for one).
            inputSchema: jsonSchema<{ city: string; code: string }>({
              type: 'object',
              properties: { city: { type: 'string', enum: ['Paris', 'Oslo'] }, code: { type: 'string', minLength: 9 } },
              required: ['city', 'code'],
            }),
            execute: async (input) => {
              inputs.push(input);
              return TOOL_OUTPUT;
            },
          }),
        },
        stopWhen: stepCountIs(2),
        providerOptions: client.providerOptions,
        maxRetries: 0,
      });
      const [first, second] = result.steps;
      expect(result.steps).toHaveLength(2);
      expect(first.finishReason).toBe('tool-calls');
      expect(first.toolCalls.map((call) => [call.toolName, call.input])).toEqual([['weather', { city: 'Paris', code: 'examplexx' }]]);
      expect(inputs).toEqual([{ city: 'Paris', code: 'examplexx' }]);
      expect(first.toolResults.map((toolResult) => toolResult.output)).toEqual([TOOL_OUTPUT]);
      // Gemini clients send the result as an object ({name, content}); the mock quotes it whole.
      expect(second.text).toMatch(/^The tool returned weather: /);
      expect(second.text).toContain(TOOL_OUTPUT);
      expect(result.finishReason).toBe('stop');
      expect(result.totalUsage.outputTokens).toBe(first.usage.outputTokens! + second.usage.outputTokens!);
      expectCleanExchanges(client, 2);
    });

    it('mock-tools: streamText streams the tool call and the answer', async () => {
      const client = createAiSdkClient(clientName, gateway.url);
      const result = streamText({
        model: client.model('mock-tools'),
        prompt: 'Look something up.',
        tools: {
          lookup: tool({
            inputSchema: jsonSchema<{ query: string }>({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }),
            execute: async ({ query }) => `found ${query}`,
          }),
        },
        stopWhen: stepCountIs(2),
        providerOptions: client.providerOptions,
        maxRetries: 0,
        onError: () => {},
      });
      const partTypes = new Set<string>();
      for await (const part of result.fullStream) {
        partTypes.add(part.type);
        if (part.type === 'error') throw part.error;
      }
      expect([...partTypes]).toEqual(expect.arrayContaining(['tool-input-start', 'tool-input-delta', 'tool-call', 'tool-result', 'text-delta', 'finish']));
      const steps = await result.steps;
      expect(steps[0].toolCalls.map((call) => call.input)).toEqual([{ query: 'example' }]);
      expect(await result.text).toMatch(/^The tool returned lookup: .*found example/);
      expect(await result.finishReason).toBe('stop');
      expectCleanExchanges(client, 2);
    });
  });
});

/** The Responses provider keeps state at OpenAI unless told not to; the gateway keeps none. */
describe.each(AI_SDK_CLIENT_NAMES.filter((name) => AI_SDK_CLIENT_PROTOCOL[name] === 'openai-responses'))('%s', (clientName) => {
  /** A tool loop with the SDK's default store: true: step two refers to step one by item_reference. */
  async function storedToolLoop(provider: string, upstreamProtocol: UpstreamProtocol) {
    const client = createAiSdkClient(clientName, gateway.url);
    const expected = expectFixture(upstreamProtocol, FIXTURE_FILES[upstreamProtocol].tool.stream);
    const result = streamText({
      model: client.model(`${provider}/tool`),
      prompt: QUESTION,
      tools: createRecordingTools(expected.toolCalls.map((call) => call.name), []),
      stopWhen: stepCountIs(2),
      maxRetries: 0,
      onError: () => {},
    });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'error') errors.push(part.error);
    return { client, errors };
  }

  it('a Responses upstream resolves the stored items the follow-up refers to (passthrough)', async () => {
    const before = upstream.requests.length;
    const { client, errors } = await storedToolLoop('up-responses', 'openai-responses');
    expect(errors).toEqual([]);
    expect(client.exchanges.map((exchange) => exchange.status)).toEqual([200, 200]);
    const followUp = JSON.parse(upstream.requests[before + 1].body);
    expect(followUp.input).toContainEqual(expect.objectContaining({ type: 'item_reference' }));
  });
});
