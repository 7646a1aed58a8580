import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createUpstreamProviders, FIXTURE_FILES, UPSTREAM_PROTOCOLS, UPSTREAM_PROVIDER_ID, fixtureToolCallIds, identifyRequest, replyFromFixtures } from './helpers/fake-protocol-upstream.js';
import { expectFixture } from './helpers/fixture-expectations.js';
import { createProtocolClient, type ProtocolClient } from './helpers/protocol-clients.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

/**
 * Every client protocol (its official SDK) against an upstream of every protocol (a fake replaying
 * recorded vendor traffic): a plain turn, a streamed turn through the SDK's strict helper, and a
 * streamed tool call followed by the turn with its result.
 */
const CLIENTS = ['openai-chat', 'anthropic-messages', 'openai-responses', 'gemini'] as const;

let upstream: FakeUpstream;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startFakeUpstream(replyFromFixtures);
  gateway = await startTestGateway({
    providers: createUpstreamProviders(upstream.url),
  });
});
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

function createClient(name: (typeof CLIENTS)[number]): ProtocolClient {
  return createProtocolClient(name, gateway.url);
}

describe.each(CLIENTS)('%s client', (clientName) => {
  describe.each(UPSTREAM_PROTOCOLS)('→ %s upstream', (upstreamProtocol) => {
    const provider = UPSTREAM_PROVIDER_ID[upstreamProtocol];
    const files = FIXTURE_FILES[upstreamProtocol];

    it('answers a plain turn with the text and usage', async () => {
      const result = await createClient(clientName).text(`${provider}/text`);
      const expected = expectFixture(upstreamProtocol, files.text.json);
      expect(result).toEqual({ text: expected.text, toolCalls: [], inputTokens: expected.inputTokens, outputTokens: expected.outputTokens });
    });

    it('streams a turn that the strict stream helper accepts', async () => {
      const result = await createClient(clientName).stream(`${provider}/text`);
      const expected = expectFixture(upstreamProtocol, files.text.stream);
      expect(result).toEqual({ text: expected.text, toolCalls: [], inputTokens: expected.inputTokens, outputTokens: expected.outputTokens });
    });

    it('streams a tool call, then sends its result back under the same id', async () => {
      const client = createClient(clientName);
      const first = await client.stream(`${provider}/tool`, true);
      const expected = expectFixture(upstreamProtocol, files.tool.stream);
      expect(first.toolCalls).toEqual(expected.toolCalls);
      expect(first.text).toBe(expected.text);

      const before = upstream.requests.length;
      const second = await client.followUp(`${provider}/tool`, client.lastTurn(), 'sunny, 21 degrees');
      const sent = identifyRequest(upstream.requests[before]);
      expect(sent.toolResults.map((result) => result.id)).toEqual(fixtureToolCallIds(upstreamProtocol, true));
      for (const result of sent.toolResults) expect(result.content).toContain('sunny, 21 degrees');
      expect(second.text).toBe(expectFixture(upstreamProtocol, files.text.json).text);
    });
  });
});

describe('more choices than an upstream returns', () => {
  it('a Gemini client asking for candidateCount 2 from an Anthropic upstream gets a 400 naming its own field', async () => {
    const client = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: gateway.url } });
    const attempt = client.models.generateContent({
      model: `${UPSTREAM_PROVIDER_ID['anthropic-messages']}/text`,
      contents: 'Hi',
      config: { candidateCount: 2 },
    });
    await expect(attempt).rejects.toMatchObject({ status: 400, message: expect.stringContaining('generationConfig.candidateCount > 1 cannot be served') });
  });

  it('a Chat client asking for n 2 from an Anthropic upstream gets a 400 with param n', async () => {
    const client = new OpenAI({ apiKey: 'test-key', baseURL: `${gateway.url}/v1` });
    const attempt = client.chat.completions.create({ model: `${UPSTREAM_PROVIDER_ID['anthropic-messages']}/text`, messages: [{ role: 'user', content: 'Hi' }], n: 2 });
    await expect(attempt).rejects.toMatchObject({ status: 400, param: 'n' });
  });
});
