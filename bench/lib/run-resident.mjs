// Resident memory: RSS of a fresh reference proxy and a fresh gateway once started (nothing asked
// yet), then after the warm-up the throughput scenarios get (every path, non-stream and stream,
// at c=10 and c=100). What a process keeps for good (modules loaded, tables built on first use,
// compiled code, a grown heap) shows here; what a load holds while it runs is the memory.* lines.
import { setTimeout as sleep } from 'node:timers/promises';
import { clientRequest } from './bodies.mjs';
import { NONSTREAM_CONCURRENCY, PATHS, REFERENCE_MODEL, STREAM_CONCURRENCY } from './catalog.mjs';
import { closedLoop } from './load.mjs';
import { setUpstreamShape } from './run-throughput.mjs';
import { measuredScenario } from './stats.mjs';

const rssMb = (service) => service.memoryKb().rssKb / 1024;

export async function runResidentScenario({ scenario, settings, upstream, startReference, startGateway, log }) {
  const warm = async (service, requests) => {
    for (const stream of [false, true]) {
      if (stream) await setUpstreamShape(upstream.url, { events: settings.streamEvents, delayMs: settings.streamDelayMs });
      for (const concurrency of stream ? STREAM_CONCURRENCY : NONSTREAM_CONCURRENCY) {
        for (const request of requests(stream)) {
          await closedLoop({ url: service.url, request, concurrency: Math.min(concurrency, settings.maxConcurrency ?? concurrency), warmupMs: 0, durationMs: settings.residentWarmupMs, stream, cpuOf: service.cpuSeconds });
        }
      }
    }
  };
  const upstreamProtocols = [...new Set(Object.values(PATHS).map((path) => path.upstream))];
  const sides = {
    reference: { start: startReference, requests: (stream) => upstreamProtocols.map((protocol) => clientRequest(protocol, REFERENCE_MODEL[protocol], stream)) },
    gateway: { start: startGateway, requests: (stream) => Object.values(PATHS).map((path) => clientRequest(path.client, path.model, stream)) },
  };
  const rounds = [];
  for (let round = 0; round < settings.memoryRounds; round += 1) {
    const measured = {};
    const order = round % 2 === 0 ? ['reference', 'gateway'] : ['gateway', 'reference'];
    for (const side of order) {
      const service = await sides[side].start();
      try {
        await sleep(settings.residentSettleMs);
        const idleRssMb = rssMb(service);
        await warm(service, sides[side].requests);
        await sleep(settings.residentSettleMs);
        measured[side] = { idleRssMb, warmRssMb: rssMb(service) };
      } finally {
        await service.kill();
      }
      log(`  round ${round + 1}/${settings.memoryRounds} ${side}: ${measured[side].idleRssMb.toFixed(1)} MB started, ${measured[side].warmRssMb.toFixed(1)} MB warm`);
    }
    const ratios = Object.fromEntries(scenario.metrics.map((metric) => [metric, measured.gateway[metric] / measured.reference[metric]]));
    rounds.push({ reference: measured.reference, gateway: measured.gateway, ratios });
  }
  return {
    ...measuredScenario(scenario, rounds),
  };
}
