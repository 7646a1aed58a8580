import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerateResponse } from '../src/core/generate-response.js';
import { getCodec } from '../src/protocols/codecs.js';
import { createUpstreamProviders, replyFromFixtures, UPSTREAM_PROTOCOLS, UPSTREAM_PROVIDER_ID } from './helpers/fake-protocol-upstream.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createProtocolClient } from './helpers/protocol-clients.js';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

/**
 * What the inspector page shows as a finished stream's response: the answer as the client's
 * protocol returns it without streaming, for a stream passed through (kept as its events, read
 * when the page asks) and for a translated one (rendered when it ends), for every protocol.
 */

let upstream: FakeUpstream;
let gateway: TestGateway;
let token: string;

beforeAll(async () => {
  upstream = await startFakeUpstream(replyFromFixtures);
  gateway = await startTestGateway({ providers: createUpstreamProviders(upstream.url) });
  const page = await fetch(`${gateway.url}/ui`);
  token = /name="switchyard-page-token" content="([^"]+)"/.exec(await page.text())![1];
});
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

async function api(path: string): Promise<any> {
  const response = await fetch(`${gateway.url}${path}`, { headers: { 'x-switchyard-page-token': token } });
  expect(response.status).toBe(200);
  return response.json();
}

function textOf(response: GenerateResponse): string {
  return response.choices[0]!.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

describe.each(UPSTREAM_PROTOCOLS)('a %s client', (client) => {
  const translatedTo = UPSTREAM_PROTOCOLS[(UPSTREAM_PROTOCOLS.indexOf(client) + 1) % UPSTREAM_PROTOCOLS.length]!;
  it.each([
    ['passed through', client, 'passthrough'],
    [`translated to ${translatedTo}`, translatedTo, 'translate'],
  ])('sees a stream %s as one answer in its own protocol', async (_name, upstreamProtocol, mode) => {
    const result = await createProtocolClient(client, gateway.url).stream(`${UPSTREAM_PROVIDER_ID[upstreamProtocol]}/text`);
    const [row] = (await api('/ui/api/requests')).rows;
    expect(row).toMatchObject({ protocol: client, stream: true, mode, status: 200, live: false, output_tokens: result.outputTokens });
    const detail = await api(`/ui/api/requests/${row.request_id}`);
    // The client codec reads it as a non-stream answer of its protocol: the text and usage the SDK got.
    const answer = getCodec(client).decodeResponse(JSON.parse(detail.response_body));
    expect(textOf(answer)).toBe(result.text);
    expect(answer.usage.output.total).toBe(result.outputTokens);
    expect(result.text.length).toBeGreaterThan(0);
  });
});
