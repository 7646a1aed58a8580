// Non-stream and stream scenarios: closed-loop load on the reference proxy and on the gateway,
// interleaved round by round (the order flips every round), each figure the median over rounds.
import { request } from 'undici';
import { clientRequest } from './bodies.mjs';
import { isTranslated, PATHS, REFERENCE_MODEL } from './catalog.mjs';
import { closedLoop, probe } from './load.mjs';
import { median, medianOfRounds } from './stats.mjs';

/** Does a 200 body look like an answer of `protocol`? (A wrong codec can still say 200.) */
const LOOKS_RIGHT = {
  'openai-chat': { json: (text) => text.includes('"choices"'), stream: (text) => text.includes('[DONE]') },
  'anthropic-messages': { json: (text) => /"type":\s*"message"/.test(text), stream: (text) => text.includes('message_stop') },
  'openai-responses': { json: (text) => text.includes('"output"'), stream: (text) => text.includes('response.completed') },
  gemini: { json: (text) => text.includes('"candidates"'), stream: (text) => text.includes('finishReason') },
};

export async function setUpstreamShape(upstreamUrl, shape) {
  const response = await request(`${upstreamUrl}/__bench`, { method: 'POST', body: JSON.stringify(shape), headers: { 'content-type': 'application/json' } });
  await response.body.text();
}

/** The fake upstream's counters: requests, streams, streams open now and at most. */
export async function upstreamCounters(upstreamUrl) {
  const response = await request(`${upstreamUrl}/__bench`);
  return (await response.body.json()).counters;
}

async function checkAvailable(url, protocol, requestToSend, stream) {
  const answer = await probe(url, requestToSend);
  if (answer.status !== 200) return `HTTP ${answer.status}: ${answer.text.replace(/\s+/g, ' ').slice(0, 160)}`;
  if (!LOOKS_RIGHT[protocol][stream ? 'stream' : 'json'](answer.text)) return `unexpected ${protocol} answer: ${answer.text.replace(/\s+/g, ' ').slice(0, 160)}`;
  return undefined;
}

function toMetrics(result, stream) {
  const common = { cpuUtilization: result.cpuUtilization, requests: result.requests, errors: result.errors };
  if (!stream) return { rps: result.rps, p50Ms: result.p50Ms, p99Ms: result.p99Ms, cpuUsPerRequest: result.cpuUsPerRequest, ...common };
  return {
    ttfbP50Ms: result.ttfbP50Ms,
    ttfbP99Ms: result.ttfbP99Ms,
    totalP50Ms: result.p50Ms,
    cpuUsPerStream: result.cpuUsPerRequest,
    streamsPerSecond: result.rps,
    ...common,
  };
}

function ratiosOf(gateway, reference, metrics) {
  return Object.fromEntries(metrics.map((metric) => [metric, gateway[metric] / reference[metric]]));
}

/**
 * Runs the selected scenarios of one group ('nonstream' or 'stream') against the running
 * reference proxy and gateway; returns a result per scenario id. With `baseline` (another build's
 * gateway) every scenario is also measured there; with `floor` (bench/thin-translator.mjs) every
 * translated scenario is also measured on the thinnest translator, in the same rounds.
 */
export async function runThroughputGroup({ group, scenarios, settings, upstream, reference, gateway, baseline, floor, log }) {
  const stream = group === 'stream';
  const warmupMs = stream ? settings.streamWarmupMs : settings.warmupMs;
  const durationMs = stream ? settings.streamDurationMs : settings.durationMs;
  if (stream) await setUpstreamShape(upstream.url, { events: settings.streamEvents, delayMs: settings.streamDelayMs });
  const results = {};
  const services = { gateway, baseline, floor };
  /** The sides measured next to the reference for a scenario, besides the gateway. */
  const extraSidesOf = (scenario) => [...(baseline ? ['baseline'] : []), ...(floor && isTranslated(scenario) ? ['floor'] : [])];

  const gatewayRequests = {};
  for (const scenario of scenarios) {
    const path = PATHS[scenario.path];
    gatewayRequests[scenario.id] = clientRequest(path.client, path.model, stream);
    let problem = await checkAvailable(gateway.url, path.client, gatewayRequests[scenario.id], stream);
    for (const side of extraSidesOf(scenario)) problem ??= (await checkAvailable(services[side].url, path.client, gatewayRequests[scenario.id], stream))?.replace(/^/, `${side}: `);
    results[scenario.id] = problem
      ? { id: scenario.id, group, description: scenario.description, metrics: scenario.metrics, status: 'unavailable', reason: problem }
      : { id: scenario.id, group, description: scenario.description, metrics: scenario.metrics, status: 'ok', rounds: [] };
    if (problem) log(`  ${scenario.id}: unavailable (${problem})`);
  }
  const live = scenarios.filter((scenario) => results[scenario.id].status === 'ok');
  const referenceRequests = {};
  for (const upstreamProtocol of new Set(live.map((scenario) => PATHS[scenario.path].upstream))) {
    referenceRequests[upstreamProtocol] = clientRequest(upstreamProtocol, REFERENCE_MODEL[upstreamProtocol], stream);
    const problem = await checkAvailable(reference.url, upstreamProtocol, referenceRequests[upstreamProtocol], stream);
    if (problem) throw new Error(`the reference proxy does not answer ${upstreamProtocol}: ${problem}`);
  }
  if (live.length === 0) return results;

  // The quick mode caps the concurrency: its numbers mean nothing, and opening a hundred
  // connections per window would be most of its time.
  const measure = async (service, requestToSend, concurrency, warm = warmupMs, duration = durationMs) =>
    toMetrics(await closedLoop({ url: service.url, request: requestToSend, concurrency: Math.min(concurrency, settings.maxConcurrency ?? concurrency), warmupMs: warm, durationMs: duration, stream, cpuOf: service.cpuSeconds }), stream);

  const concurrencies = [...new Set(live.map((scenario) => scenario.concurrency))];
  // An unmeasured round first: every path at every concurrency of the group, long enough for the
  // JIT to settle on the same mix of work as the measured rounds. Both sides are then measured as
  // the long-running processes they are, not while V8 is still compiling (which costs the
  // gateway, with more code, more than the reference). V8 optimizes a function once it has run
  // enough times, so what is run once per stream needs thousands of streams: the highest
  // concurrency's pass is the longer one for streams (FINDINGS.md, "V8 optimizes by count").
  const highest = Math.max(...concurrencies);
  for (const concurrency of settings.warmupPassMs > 0 ? concurrencies : []) {
    const passMs = stream && concurrency === highest ? settings.streamWarmupPassMs : settings.warmupPassMs;
    for (const [, requestToSend] of Object.entries(referenceRequests)) await measure(reference, requestToSend, concurrency, 0, passMs);
    for (const scenario of live) {
      for (const side of ['gateway', ...extraSidesOf(scenario)]) await measure(services[side], gatewayRequests[scenario.id], concurrency, 0, passMs);
    }
  }

  for (let round = 0; round < settings.rounds; round += 1) {
    for (const concurrency of concurrencies) {
      for (const [upstreamProtocol, referenceRequest] of Object.entries(referenceRequests)) {
        const cells = live.filter((scenario) => scenario.concurrency === concurrency && PATHS[scenario.path].upstream === upstreamProtocol);
        if (cells.length === 0) continue;
        // Reference first in even rounds, last in odd ones: a slow drift of the machine hits both.
        // A cell's other sides are measured next to its gateway, their order flipping too.
        const measured = cells.flatMap((cell) => {
          const sides = ['gateway', ...extraSidesOf(cell)];
          return (round % 2 === 0 ? sides : sides.reverse()).map((side) => [cell, side]);
        });
        const order = round % 2 === 0 ? ['reference', ...measured] : [...measured, 'reference'];
        let referenceResult;
        const sideResults = new Map();
        for (const item of order) {
          if (item === 'reference') referenceResult = await measure(reference, referenceRequest, concurrency);
          else sideResults.set(`${item[0].id} ${item[1]}`, await measure(services[item[1]], gatewayRequests[item[0].id], concurrency));
        }
        for (const cell of cells) {
          const gatewayResult = sideResults.get(`${cell.id} gateway`);
          const baselineResult = sideResults.get(`${cell.id} baseline`);
          const floorResult = sideResults.get(`${cell.id} floor`);
          results[cell.id].rounds.push({
            reference: referenceResult,
            gateway: gatewayResult,
            ratios: ratiosOf(gatewayResult, referenceResult, cell.metrics),
            ...(baselineResult && { baseline: baselineResult, versusBaseline: ratiosOf(gatewayResult, baselineResult, cell.metrics) }),
            ...(floorResult && { floor: floorResult, floorRatios: ratiosOf(floorResult, referenceResult, cell.metrics), versusFloor: ratiosOf(gatewayResult, floorResult, cell.metrics) }),
          });
        }
        log(
          `  round ${round + 1}/${settings.rounds} c=${concurrency} ${upstreamProtocol}: reference ${describe(referenceResult, stream)}; ` +
            cells
              .map((cell) => {
                const others = extraSidesOf(cell).map((side) => `${side} ${describe(sideResults.get(`${cell.id} ${side}`), stream)}`);
                return `${cell.path} ${describe(sideResults.get(`${cell.id} gateway`), stream)}${others.length > 0 ? ` (${others.join('; ')})` : ''}`;
              })
              .join('; '),
        );
      }
    }
  }

  for (const scenario of live) {
    const result = results[scenario.id];
    result.reference = medianOfRounds(result.rounds.map((round) => round.reference));
    result.gateway = medianOfRounds(result.rounds.map((round) => round.gateway));
    // The ratio pairs the two measurements of the same round, then takes the median over rounds.
    const pairedMedian = (key) => Object.fromEntries(scenario.metrics.map((metric) => [metric, median(result.rounds.map((round) => round[key][metric]))]));
    result.ratios = pairedMedian('ratios');
    if (result.rounds[0].baseline) {
      result.baseline = medianOfRounds(result.rounds.map((round) => round.baseline));
      result.versusBaseline = pairedMedian('versusBaseline');
    }
    if (result.rounds[0].floor) {
      result.floor = medianOfRounds(result.rounds.map((round) => round.floor));
      result.floorRatios = pairedMedian('floorRatios');
      result.versusFloor = pairedMedian('versusFloor');
    }
    const errors = result.rounds.reduce((sum, round) => sum + (round.gateway.errors ?? 0), 0);
    if (errors > 0) result.reason = `${errors} failed requests during the measurement`;
  }
  return results;
}

function describe(result, stream) {
  return stream
    ? `${Math.round(result.streamsPerSecond)} streams/s, first byte p50 ${result.ttfbP50Ms?.toFixed(2)} ms, ${Math.round(result.cpuUsPerStream)} µs CPU/stream`
    : `${Math.round(result.rps)} req/s, p50 ${result.p50Ms?.toFixed(2)} ms, ${Math.round(result.cpuUsPerRequest)} µs CPU/req`;
}
