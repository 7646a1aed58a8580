// Memory: peak RSS of a fresh reference proxy and a fresh gateway while N slow streams are open at
// once (the upstream sends an event every second or so). Fresh processes, so the peak is the
// streams' and not the leftovers of an earlier load; sampled from /proc/<pid>/status.
import { clientRequest } from './bodies.mjs';
import { PATHS, REFERENCE_MODEL } from './catalog.mjs';
import { holdStreams, probe } from './load.mjs';
import { setUpstreamShape } from './run-throughput.mjs';
import { median, medianOfRounds } from './stats.mjs';

const CANCEL_ON_DISCONNECT = { 'x-switchyard-on-disconnect': 'cancel' };

function slowRequest(protocol, model) {
  const base = clientRequest(protocol, model, true);
  return { ...base, headers: { ...base.headers, ...CANCEL_ON_DISCONNECT } };
}

export async function runMemoryGroup({ scenarios, settings, upstream, startReference, startGateway, log }) {
  const results = {};
  const paths = [...new Set(scenarios.map((scenario) => scenario.path))];
  const sizes = [...new Set(scenarios.map((scenario) => scenario.size))].sort((a, b) => a - b);

  // Which paths answer at all (a fresh process, a fast stream), before anything is measured. The
  // quick mode saves that process: a path that fails there opens no stream, which is caught below.
  const unavailable = {};
  if (settings.memoryProbe) {
    await setUpstreamShape(upstream.url, { events: 3, delayMs: 0 });
    const probeGateway = await startGateway();
    try {
      for (const name of paths) {
        const answer = await probe(probeGateway.url, slowRequest(PATHS[name].client, PATHS[name].model));
        if (answer.status !== 200) unavailable[name] = `HTTP ${answer.status}: ${answer.text.replace(/\s+/g, ' ').slice(0, 160)}`;
      }
    } finally {
      await probeGateway.kill();
    }
  }
  for (const scenario of scenarios) {
    results[scenario.id] = unavailable[scenario.path]
      ? { id: scenario.id, group: 'memory', description: scenario.description, metrics: scenario.metrics, status: 'unavailable', reason: unavailable[scenario.path] }
      : { id: scenario.id, group: 'memory', description: scenario.description, metrics: scenario.metrics, status: 'ok', rounds: [], streams: settings.memoryCounts[scenario.size] };
  }
  const livePaths = paths.filter((name) => !unavailable[name]);
  if (livePaths.length === 0) return results;

  await setUpstreamShape(upstream.url, { events: settings.slowEvents, delayMs: settings.slowIntervalMs });
  const maxMs = (settings.slowEvents - 1) * settings.slowIntervalMs + settings.memorySlackMs;
  const hold = async (service, requestToSend, size) => {
    const count = settings.memoryCounts[size];
    const outcome = await holdStreams({ url: service.url, request: requestToSend, count, maxMs, memoryOf: service.memoryKb });
    return {
      peakRssMb: outcome.peakRssMb,
      idleRssMb: outcome.baselineRssMb,
      kbPerStream: ((outcome.peakRssMb - outcome.baselineRssMb) * 1024) / count,
      maxLive: outcome.maxLive,
      opened: outcome.opened,
      completed: outcome.completed,
      errors: outcome.errors,
      allOpenMs: outcome.allOpenMs,
      seconds: outcome.seconds,
      ...(outcome.firstError && { firstError: outcome.firstError }),
    };
  };

  for (let round = 0; round < settings.memoryRounds; round += 1) {
    const systems = ['reference', ...livePaths];
    if (round % 2 === 1) systems.reverse();
    const measured = {};
    for (const system of systems) {
      const service = system === 'reference' ? await startReference() : await startGateway();
      try {
        measured[system] = {};
        for (const size of sizes) {
          const requestToSend = system === 'reference' ? slowRequest('openai-chat', REFERENCE_MODEL['openai-chat']) : slowRequest(PATHS[system].client, PATHS[system].model);
          measured[system][size] = await hold(service, requestToSend, size);
          const result = measured[system][size];
          log(`  round ${round + 1}/${settings.memoryRounds} ${system} ${settings.memoryCounts[size]} streams: peak ${result.peakRssMb.toFixed(1)} MB (idle ${result.idleRssMb.toFixed(1)}), ${result.maxLive} open at once, ${result.completed} completed`);
        }
      } finally {
        await service.kill();
      }
    }
    for (const scenario of scenarios) {
      if (unavailable[scenario.path]) continue;
      const reference = measured.reference[scenario.size];
      const gateway = measured[scenario.path][scenario.size];
      results[scenario.id].rounds.push({ reference, gateway, ratios: Object.fromEntries(scenario.metrics.map((metric) => [metric, gateway[metric] / reference[metric]])) });
    }
  }
  for (const scenario of scenarios) {
    const result = results[scenario.id];
    if (result.status !== 'ok') continue;
    const failed = result.rounds.find((round) => round.gateway.opened === 0);
    if (failed) {
      results[scenario.id] = { id: scenario.id, group: 'memory', description: scenario.description, metrics: scenario.metrics, status: 'unavailable', reason: `no stream opened: ${failed.gateway.firstError ?? 'no error'}` };
      continue;
    }
    result.reference = medianOfRounds(result.rounds.map((round) => round.reference));
    result.gateway = medianOfRounds(result.rounds.map((round) => round.gateway));
    result.ratios = Object.fromEntries(scenario.metrics.map((metric) => [metric, median(result.rounds.map((round) => round.ratios[metric]))]));
    // A lower peak bought by serving fewer streams at once is no pass.
    if (result.gateway.maxLive < result.streams) {
      result.reason = `only ${Math.round(result.gateway.maxLive)} of ${result.streams} streams were open at once through the gateway (the others waited)`;
      result.budgetBlocked = result.reason;
    }
  }
  return results;
}
