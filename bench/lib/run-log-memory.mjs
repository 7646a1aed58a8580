// `log.memory`: does the gateway's memory stay flat while the request log grows? A fresh gateway
// in its default configuration (request log and stderr line on) serves 100,000 passthrough
// non-stream requests at c=10, one after another as clients send them; its RSS is read every
// thousandth of them. RSS rises and falls with the collector, so one reading says little: the
// figure is the highest RSS over the last tenth (and once its last entries are written) less the
// highest over the second tenth (warm: modules, compiled code, pools and the log writer's buffers
// in place). A leak raises the peaks; the sawtooth does not. The reference proxy's, over the same
// requests, is beside it. Then the gateway is stopped and the
// entries on disk are counted: every request must be there, or the line is no pass.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { clientRequest } from './bodies.mjs';
import { REFERENCE_MODEL } from './catalog.mjs';

const rssMb = (service) => service.memoryKb().rssKb / 1024;

/** Sends `count` requests, `concurrency` at a time; calls `checkpoint(done)` every `every` completed ones. */
async function sendRequests({ url, request, count, concurrency, every, checkpoint, deadlineMs }) {
  const pool = new Pool(url, { connections: concurrency, keepAliveTimeout: 60_000 });
  const deadline = Date.now() + deadlineMs;
  let sent = 0;
  let done = 0;
  let errors = 0;
  let firstError;
  const worker = async () => {
    while (sent < count && Date.now() < deadline) {
      sent += 1;
      try {
        const response = await pool.request({ path: request.path, method: 'POST', headers: request.headers, body: request.body });
        await response.body.dump();
        if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
      } catch (error) {
        errors += 1;
        firstError ??= String(error?.message ?? error);
        await sleep(5);
      }
      done += 1;
      if (done % every === 0) checkpoint(done);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await pool.destroy();
  return { done, errors, firstError };
}

async function countLoggedEntries(home) {
  const directory = join(home, 'log');
  let count = 0;
  for (const name of await readdir(directory).catch(() => [])) {
    if (!name.endsWith('.jsonl') || name.endsWith('.bodies.jsonl')) continue;
    const text = await readFile(join(directory, name), 'latin1');
    for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) count += 1;
  }
  return count;
}

/** Sends the requests to a fresh `service`; its highest RSS over the second tenth and over the last. */
async function measureSide({ service, request, settings, samples }) {
  const count = settings.logMemoryRequests;
  const tenth = Math.max(1, Math.floor(count / 10));
  let rssWarmMb = NaN;
  let rssEndMb = NaN;
  const highest = (current, rss) => (Number.isNaN(current) ? rss : Math.max(current, rss));
  const sent = await sendRequests({
    url: service.url,
    request,
    count,
    concurrency: 10,
    every: Math.max(1, Math.floor(count / 1000)),
    deadlineMs: settings.logMemoryDeadlineMs,
    checkpoint: (done) => {
      const rss = rssMb(service);
      // Every 5,000th reading goes to the JSON; all are judged.
      if (done % Math.max(1, Math.floor(count / 20)) === 0) samples.push({ requests: done, rssMb: Number(rss.toFixed(1)) });
      if (done > tenth && done <= 2 * tenth) rssWarmMb = highest(rssWarmMb, rss);
      if (done > count - tenth) rssEndMb = highest(rssEndMb, rss);
    },
  });
  // The writer's last batch, and whatever the last requests left for the collector.
  await sleep(settings.residentSettleMs);
  rssEndMb = highest(rssEndMb, rssMb(service));
  return { sent, figures: { rssWarmMb, rssEndMb, rssGrowthMb: rssEndMb - rssWarmMb, peakRssMb: service.memoryKb().hwmKb / 1024 } };
}

/** The reference proxy goes through the same requests first: what a Node proxy's RSS does by itself. */
export async function runLogMemoryScenario({ scenario, settings, startReference, startGateway, log }) {
  const count = settings.logMemoryRequests;
  const samples = { reference: [], gateway: [] };
  const referenceProxy = await startReference();
  let reference;
  try {
    reference = await measureSide({ service: referenceProxy, request: clientRequest('openai-chat', REFERENCE_MODEL['openai-chat'], false), settings, samples: samples.reference });
  } finally {
    await referenceProxy.stop();
  }
  const gatewayProcess = await startGateway();
  let gateway;
  try {
    gateway = await measureSide({ service: gatewayProcess, request: clientRequest('openai-chat', 'm', false), settings, samples: samples.gateway });
  } finally {
    await gatewayProcess.stop();
  }
  const logged = await countLoggedEntries(gatewayProcess.home);
  const { sent } = gateway;
  log(
    `  ${sent.done} requests (${sent.errors} failed): gateway RSS at most ${gateway.figures.rssWarmMb.toFixed(1)} MB over the second tenth, ${gateway.figures.rssEndMb.toFixed(1)} MB over the last; ` +
      `reference ${reference.figures.rssWarmMb.toFixed(1)} → ${reference.figures.rssEndMb.toFixed(1)} MB; ${logged} entries in the log`,
  );
  const reasons = [];
  for (const [side, result] of [['gateway', gateway], ['reference', reference]]) {
    if (result.sent.errors > 0) reasons.push(`${side}: ${result.sent.errors} failed requests (${result.sent.firstError})`);
    if (result.sent.done < count) reasons.push(`${side}: only ${result.sent.done} of ${count} requests sent before the deadline`);
  }
  if (logged < sent.done - sent.errors) reasons.push(`${logged} entries logged for ${sent.done - sent.errors} answered requests`);
  return Object.assign(
    {
      id: scenario.id,
      group: scenario.group,
      description: scenario.description,
      metrics: scenario.metrics,
      status: 'ok',
      reference: reference.figures,
      gateway: gateway.figures,
      requests: sent.done,
      logged,
      samples,
    },
    // Memory that stays flat because requests failed or were not logged is no pass.
    reasons.length > 0 ? { reason: reasons.join('; '), budgetBlocked: reasons.join('; ') } : {},
  );
}
