import { describe, expect, it } from 'vitest';
import type { GatewayConfig } from '../../config/config-types.js';
import type { GenerationOutcome } from '../../gateway/generation-outcome.js';
import { BODY_NOT_KEPT } from './finished-requests.js';
import { InspectorObserver } from './inspector-observer.js';

const config = { providers: [], prices: {} } as unknown as GatewayConfig;

function outcome(requestId: string, user = 'alice'): GenerationOutcome {
  const body = Buffer.from(`{"id":"${requestId}"}`);
  return {
    requestId, user, protocol: 'openai-chat', model: 'm', stream: false, endpoint: '/v1/chat/completions', userAgent: undefined, startedAt: 0,
    upstream: undefined, attempts: [], status: 200, durationMs: 1, ttfbMs: undefined, warnings: [], error: undefined, interrupted: undefined, resumedFrom: undefined,
    requestBodyText: () => body.toString(), upstreamRequestBodyText: () => undefined, responseBodyText: () => 'answer', bodies: () => ({ request: body, upstreamRequest: body, response: `answer of ${requestId}` }),
    responseSoFar: () => ({ choices: [], usage: { input: {}, output: {} } }), usage: () => ({ input: {}, output: {} }), secrets: () => [],
  };
}

describe('InspectorObserver', () => {
  it('keeps the newest `keep` requests, newest first, and forgets the older ones', () => {
    const inspector = new InspectorObserver(3, () => config);
    for (const id of ['a', 'b', 'c', 'd', 'e']) {
      const generation = outcome(id, id === 'd' ? 'bob' : 'alice');
      inspector.started(generation);
      inspector.finished(generation);
    }
    expect(inspector.rows(undefined).map((row) => row.request_id)).toEqual(['e', 'd', 'c']);
    expect(inspector.rows('alice').map((row) => row.request_id)).toEqual(['e', 'c']);
    expect(inspector.find('b', undefined)).toBeUndefined();
    expect(inspector.find('d', 'alice')).toBeUndefined();
    expect(inspector.find('c', undefined)?.outcome.responseBodyText()).toBe('answer of c');
    expect(inspector.liveCount).toBe(0);
  });

  it('marks a request answered from a recovery record, while it runs and once finished', () => {
    const inspector = new InspectorObserver(3, () => config);
    const resumed = Object.assign(outcome('retry'), { resumedFrom: 'req_first' });
    inspector.started(resumed);
    expect(inspector.rows(undefined)[0]).toMatchObject({ request_id: 'retry', live: true, resumed_from: 'req_first', upstream: null });
    inspector.finished(resumed);
    expect(inspector.rows(undefined)[0]).toMatchObject({ request_id: 'retry', live: false, resumed_from: 'req_first' });
    inspector.finished(outcome('plain'));
    expect(inspector.rows(undefined)[0]).toMatchObject({ request_id: 'plain', resumed_from: null });
  });

  it('keeps the bodies of the requests it lists, copied, and drops the oldest past its memory', () => {
    const inspector = new InspectorObserver(3, () => config, 1);
    const big = (id: string) => {
      const generation = outcome(id);
      const request = Buffer.from(JSON.stringify({ id, padding: 'x'.repeat(400 * 1024) }));
      return Object.assign(generation, { bodies: () => ({ request, upstreamRequest: Buffer.from('{"translated":true}'), response: Buffer.from(`answer of ${id}`) }) });
    };
    const first = big('first');
    inspector.finished(first);
    // The request path may reuse its buffers once the request is over.
    first.bodies().request.fill(0);
    expect(inspector.find('first', undefined)?.outcome.requestBodyText()).toContain('"id":"first"');
    for (const id of ['second', 'third', 'fourth']) inspector.finished(big(id));
    // 1 MB holds two of these requests: the oldest one listed lost its bodies, the others have theirs.
    const shown = inspector.rows(undefined).map((row) => inspector.find(row.request_id, undefined)!.outcome);
    expect(shown.map((request) => request.requestId)).toEqual(['fourth', 'third', 'second']);
    expect(shown.map((request) => request.upstreamRequestBodyText())).toEqual(['{"translated":true}', '{"translated":true}', BODY_NOT_KEPT]);
    expect(shown.map((request) => request.responseBodyText())).toEqual(['answer of fourth', 'answer of third', BODY_NOT_KEPT]);
    expect(shown[0]!.requestBodyText()).toContain('"id":"fourth"');
  });

  it('sends only what changed after a version, and a request still under way each time', () => {
    const inspector = new InspectorObserver(200, () => config);
    const done = outcome('done');
    inspector.started(done);
    inspector.finished(done);
    const seen = inspector.version;
    const running = outcome('running');
    inspector.started(running);
    expect(inspector.rows(undefined, seen).map((row) => [row.request_id, row.live])).toEqual([['running', true]]);
    expect(inspector.liveCount).toBe(1);
    // A request that finished without starting (refused before any response) is added at its end.
    const refused = outcome('refused');
    inspector.finished(refused);
    expect(inspector.rows(undefined, seen).map((row) => row.request_id)).toEqual(['refused', 'running']);
  });

  it('lists a request pushed out while it ran again when it ends, as the newest, with its figures', () => {
    const inspector = new InspectorObserver(2, () => config);
    const long = Object.assign(outcome('long'), {
      stream: true,
      ttfbMs: undefined,
      upstream: { provider: 'up', model: 'm', mode: 'translate' as const },
      attempts: [{ provider: 'up', model: 'm', mode: 'translate' as const, ms: 3, waitMs: 250 }],
      usage: () => ({ input: { total: 12, cacheRead: 4 }, output: { total: 5 } }),
    });
    inspector.started(long);
    for (const id of ['a', 'b']) inspector.finished(outcome(id));
    expect(inspector.rows(undefined).map((row) => row.request_id)).toEqual(['b', 'a']);
    inspector.finished(long);
    expect(inspector.rows(undefined).map((row) => [row.request_id, row.live])).toEqual([['long', false], ['b', false]]);
    expect(inspector.find('long', undefined)?.row).toMatchObject({ upstream: 'up/m', mode: 'translate', stream: true, ttfb_ms: null, input_tokens: 12, cached_tokens: 4, output_tokens: 5, reasoning_tokens: null });
    expect(inspector.find('long', undefined)?.outcome.attempts).toEqual([{ provider: 'up', model: 'm', mode: 'translate', ms: 3, waitMs: 250 }]);
    // Two outcomes of one request id (a client that sends its own) are each listed once they end.
    const twins = [outcome('twin'), outcome('twin')];
    for (const twin of twins) inspector.started(twin);
    for (const twin of twins) inspector.finished(twin);
    expect(inspector.rows(undefined).map((row) => [row.request_id, row.live])).toEqual([['twin', false], ['twin', false]]);
  });
});
