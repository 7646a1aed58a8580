// `inspector.passthrough.c10`: passthrough throughput with the inspector page open (its live feed
// connected and read, as the page reads it) against the same gateway with no page open, measured
// in alternating order in each round. In the table the "reference" column is the gateway without
// the page, the "gateway" column with it, and the ratio is with ÷ without.
import { request } from 'undici';
import { clientRequest } from './bodies.mjs';
import { PATHS } from './catalog.mjs';
import { closedLoop } from './load.mjs';
import { measuredScenario } from './stats.mjs';

/** Opens the page as a browser does (the page, then its live feed), and reads the feed until closed. */
async function openPage(url) {
  const page = await request(`${url}/ui`);
  const html = await page.body.text();
  const token = /name="switchyard-page-token" content="([^"]+)"/.exec(html)?.[1];
  if (page.statusCode !== 200 || token === undefined) throw new Error(`the inspector page did not load (HTTP ${page.statusCode})`);
  const abort = new AbortController();
  const feed = await request(`${url}/ui/api/feed`, { headers: { 'x-switchyard-page-token': token }, signal: abort.signal, bodyTimeout: 0 });
  if (feed.statusCode !== 200) throw new Error(`the inspector feed did not open (HTTP ${feed.statusCode})`);
  const counts = { bytes: 0, batches: 0 };
  const reading = (async () => {
    try {
      for await (const chunk of feed.body) {
        counts.bytes += chunk.length;
        counts.batches += (chunk.toString('latin1').match(/^event: rows$/gm) ?? []).length;
      }
    } catch {
      // Closed by `close()`.
    }
  })();
  return {
    counts,
    async close() {
      abort.abort();
      await reading;
    },
  };
}

export async function runInspectorScenario({ scenario, settings, gateway, log }) {
  const path = PATHS[scenario.path];
  const requestToSend = clientRequest(path.client, path.model, false);
  const concurrency = Math.min(scenario.concurrency, settings.maxConcurrency ?? scenario.concurrency);
  const measure = async (warm = settings.warmupMs, duration = settings.durationMs) => {
    const result = await closedLoop({ url: gateway.url, request: requestToSend, concurrency, warmupMs: warm, durationMs: duration, cpuOf: gateway.cpuSeconds });
    return { rps: result.rps, cpuUsPerRequest: result.cpuUsPerRequest, p50Ms: result.p50Ms, errors: result.errors, requests: result.requests };
  };
  const withPage = async (work) => {
    const page = await openPage(gateway.url);
    try {
      const result = await work();
      return Object.assign(result, { feedBatches: page.counts.batches, feedKb: page.counts.bytes / 1024 });
    } finally {
      await page.close();
    }
  };

  if (settings.warmupPassMs > 0) {
    await measure(0, settings.warmupPassMs);
    await withPage(() => measure(0, settings.warmupPassMs));
  }
  const rounds = [];
  for (let round = 0; round < settings.rounds; round += 1) {
    let without;
    let withFeed;
    // Without first in even rounds, last in odd ones: a slow drift of the machine hits both.
    if (round % 2 === 0) {
      without = await measure();
      withFeed = await withPage(() => measure());
    } else {
      withFeed = await withPage(() => measure());
      without = await measure();
    }
    rounds.push({ reference: without, gateway: withFeed, ratios: Object.fromEntries(scenario.metrics.map((metric) => [metric, withFeed[metric] / without[metric]])) });
    log(
      `  round ${round + 1}/${settings.rounds}: no page ${Math.round(without.rps)} req/s, ${Math.round(without.cpuUsPerRequest)} µs CPU/req; ` +
        `page open ${Math.round(withFeed.rps)} req/s, ${Math.round(withFeed.cpuUsPerRequest)} µs CPU/req (${withFeed.feedBatches} feed batches, ${withFeed.feedKb.toFixed(0)} KB)`,
    );
  }
  const errors = rounds.reduce((sum, round) => sum + (round.gateway.errors ?? 0) + (round.reference.errors ?? 0), 0);
  return Object.assign(
    {
      ...measuredScenario(scenario, rounds),
    },
    errors > 0 ? { reason: `${errors} failed requests during the measurement` } : {},
  );
}
