// Every scenario of the suite, by id. `--only` selects by id prefix or glob (`stream.*.c100`).

/** Client protocol → upstream protocol. `model` is the name the gateway routes to that upstream. */
export const PATHS = {
  passthrough: { client: 'openai-chat', upstream: 'openai-chat', model: 'm', label: 'Chat client → Chat upstream (passthrough)' },
  'anthropic-to-chat': { client: 'anthropic-messages', upstream: 'openai-chat', model: 'm', label: 'Anthropic client → Chat upstream (translated)' },
  'chat-to-gemini': { client: 'openai-chat', upstream: 'gemini', model: 'g', label: 'Chat client → Gemini upstream (translated)' },
};

/** A scenario whose path is translated (client and upstream speak different protocols). */
export function isTranslated(scenario) {
  const path = PATHS[scenario.path];
  return path !== undefined && path.client !== path.upstream;
}

/** The model the reference proxy asks for: it forwards the upstream's own protocol unchanged. */
export const REFERENCE_MODEL = { 'openai-chat': 'm', gemini: 'g' };

export const NONSTREAM_CONCURRENCY = [1, 10, 100];
export const STREAM_CONCURRENCY = [10, 100];
export const MEMORY_PATHS = ['passthrough', 'anthropic-to-chat'];
export const MEMORY_SIZES = [100, 1000];

export const NONSTREAM_METRICS = ['rps', 'p50Ms', 'p99Ms', 'cpuUsPerRequest'];
export const STREAM_METRICS = ['ttfbP50Ms', 'ttfbP99Ms', 'totalP50Ms', 'cpuUsPerStream', 'streamsPerSecond'];
export const MEMORY_METRICS = ['peakRssMb', 'idleRssMb', 'kbPerStream', 'maxLive'];

export function listScenarios() {
  const scenarios = [];
  for (const [name, path] of Object.entries(PATHS)) {
    for (const concurrency of NONSTREAM_CONCURRENCY) {
      scenarios.push({ id: `nonstream.${name}.c${concurrency}`, group: 'nonstream', path: name, concurrency, metrics: NONSTREAM_METRICS, description: `${path.label}, non-stream, ${concurrency} concurrent client${concurrency === 1 ? "" : "s"}` });
    }
  }
  for (const [name, path] of Object.entries(PATHS)) {
    for (const concurrency of STREAM_CONCURRENCY) {
      scenarios.push({ id: `stream.${name}.c${concurrency}`, group: 'stream', path: name, concurrency, metrics: STREAM_METRICS, description: `${path.label}, streams of 20 events, ${concurrency} concurrent clients` });
    }
  }
  for (const name of MEMORY_PATHS) {
    for (const size of MEMORY_SIZES) {
      scenarios.push({ id: `memory.${name}.${size}`, group: 'memory', path: name, size, metrics: MEMORY_METRICS, description: `${PATHS[name].label}, ${size} slow streams open at once` });
    }
  }
  scenarios.push({ id: 'inspector.passthrough.c10', group: 'inspector', path: 'passthrough', concurrency: 10, metrics: ['rps', 'cpuUsPerRequest'], description: 'Passthrough, non-stream, 10 concurrent clients, with the inspector page open and its live feed read (reference column: the same gateway with no page open)' });
  scenarios.push({ id: 'resume.passthrough.c10', group: 'resume', path: 'passthrough', concurrency: 10, metrics: ['rps', 'cpuUsPerRequest'], description: 'Passthrough, non-stream, 10 concurrent clients, with 1,000 resumable recovery records in the store, none for this request (reference column: the same gateway with an empty store)' });
  scenarios.push({ id: 'log.passthrough.c10', group: 'paired', concurrency: 10, metrics: ['rps', 'cpuUsPerRequest'], description: 'Passthrough, non-stream, 10 concurrent clients, request log on, the default (reference column: the same with log.enabled false; the stderr line on both)' });
  scenarios.push({ id: 'log.and-line.passthrough.c10', group: 'paired', concurrency: 10, metrics: ['rps', 'cpuUsPerRequest'], description: 'Passthrough, non-stream, 10 concurrent clients, request log and stderr line on, the default (reference column: the same with log.enabled false and --quiet)' });
  scenarios.push({ id: 'log.memory', group: 'log-memory', metrics: ['rssWarmMb', 'rssEndMb', 'rssGrowthMb'], description: 'RSS of a fresh gateway over 100,000 logged passthrough requests (c=10), highest over the second tenth and over the last (reference: the reference proxy over the same requests)' });
  scenarios.push({ id: 'routing.chain-healthy-first', group: 'paired', concurrency: 10, metrics: ['rps', 'cpuUsPerRequest'], description: 'Passthrough, non-stream, c=10, a three-entry fallback chain whose first entry is healthy (reference column: its first entry asked for directly)' });
  scenarios.push({ id: 'routing.pool-one-limited', group: 'paired', concurrency: 10, metrics: ['rps', 'cpuUsPerRequest'], description: 'Passthrough, non-stream, c=10, a pool of three keys, one answered 429 with a retry-after of an hour (reference column: three healthy keys)' });
  scenarios.push({ id: 'memory.resident', group: 'resident', metrics: ['idleRssMb', 'warmRssMb'], description: 'RSS of a fresh process once started, then after the throughput warm-up (every path, non-stream and stream)' });
  scenarios.push({ id: 'recoveries.loop-delay', group: 'recoveries', metrics: ['loopDelayP99Ms', 'addP50Ms'], description: 'event-loop delay while recovery records are written, 100 records of 5 MB stored' });
  scenarios.push({ id: 'team.postgres.passthrough.c10', group: 'team', concurrency: 10, metrics: ['rps', 'cpuUsPerRequest', 'dbCpuUsPerRequest'], description: 'Passthrough, non-stream, 10 concurrent clients, the store on PostgreSQL (recoveries, request log, key pools), no recovery made (reference column: the same gateway with the default file store)' });
  scenarios.push({ id: 'team.postgres.record-write', group: 'team-store', metrics: ['recordAddP50Ms', 'recordAddP99Ms', 'refreshP50Ms', 'refreshP99Ms'], description: 'PostgreSQL store: a record added, and a draining record refreshed, with 100,000 rows in the table (reference column: the same with 10 rows)' });
  scenarios.push({ id: 'cli.help', group: 'cli', metrics: ['wallMs'], description: '`gateway --help` (reference: `node -e 0`)' });
  scenarios.push({ id: 'cli.recoveries-ls', group: 'cli', metrics: ['wallMs'], description: '`gateway recoveries ls` with 1000 records (reference: `node -e 0`)' });
  scenarios.push({ id: 'cli.usage', group: 'cli', metrics: ['wallMs'], description: '`gateway usage` over 100,000 request log entries (reference: `node -e 0`)' });
  return scenarios;
}

/** Whether `id` is selected by the `--only` patterns (none: everything). */
export function isSelected(id, patterns) {
  if (!patterns || patterns.length === 0) return true;
  return patterns.some((pattern) => {
    if (pattern.includes('*')) {
      const expression = new RegExp(`^${pattern.split('*').map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
      return expression.test(id);
    }
    return id === pattern || id.startsWith(`${pattern}.`);
  });
}
