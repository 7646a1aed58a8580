import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { VENDOR } from './agent-gateway.js';
import type { ScenarioResult } from './run-scenario.js';

/**
 * Chat Completions on both ends: each request reached the vendor as the agent sent it but for the
 * model, with the vendor's key, and the vendor's stream reached the agent as is. Matched by body,
 * not by order: opencode sends its title request and its turn at the same time.
 */
export function expectChatPassthrough(result: ScenarioResult): void {
  const upstreamBodies = result.vendor.map((exchange) => JSON.parse(exchange.bodyText));
  for (const exchange of result.client.filter((entry) => entry.method === 'POST')) {
    const expected = Object.assign(JSON.parse(exchange.bodyText), { model: VENDOR['openai-chat'].model });
    const index = upstreamBodies.findIndex((body) => isDeepStrictEqual(body, expected));
    expect(index, result.describe()).toBeGreaterThanOrEqual(0);
    const upstream = result.vendor[index];
    expect(upstream.url).toBe('/v1/chat/completions');
    expect(upstream.headers.authorization).toBe('Bearer vendor-secret-key');
    expect(exchange.responseHeaders?.['x-switchyard-warnings']).toBeUndefined();
    expect(exchange.responseText).toBe(upstream.responseText);
  }
}
