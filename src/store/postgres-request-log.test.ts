import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseRelay } from '../../test/helpers/database-relay.js';
import { createTestDatabase, queryDatabase, DATABASE_URL, NO_DATABASE_REASON, type TestDatabase } from '../../test/helpers/test-database.js';
import { aggregateUsage } from '../log/aggregate-usage.js';
import type { RequestLogEntry } from '../log/request-log.js';
import { sumUsageByDayAndModel, type DayModelUsage } from '../log/usage-by-day-and-model.js';
import { openPostgresDatabase } from './postgres-database.js';
import { openPostgresRequestLog, prunePostgresRequestLog, type PostgresRequestLog } from './postgres-request-log.js';

function entry(id: string, fields: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return Object.assign(
    {
      request_id: id,
      time: new Date().toISOString(),
      user: 'alice',
      protocol: 'openai-chat',
      endpoint: '/v1/chat/completions',
      model: 'up/m',
      upstream: 'up/m',
      attempts: 1,
      mode: 'passthrough' as const,
      status: 200,
      stream: false,
      duration_ms: 12,
      ttfb_ms: 3,
      input_tokens: 10,
      output_tokens: 5,
      cached_tokens: null,
      cache_write_tokens: null,
      reasoning_tokens: null,
      cost_usd: 0.001,
      interrupted_reason: null,
      resumed_from: null,
      warnings: [],
      user_agent: 'test/1',
    },
    fields,
  );
}

describe.skipIf(!DATABASE_URL)('the request log on PostgreSQL', () => {
  let database: TestDatabase;
  const logs: PostgresRequestLog[] = [];
  const open = async () => {
    const log = await openPostgresRequestLog({ url: database.url, maxAgeMs: 86_400_000, maxBytes: 2 ** 30, log: () => undefined });
    logs.push(log);
    return log;
  };
  const rows = (text: string) => queryDatabase(database.url, text);
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(logs.map((log) => log.close()));
    await database?.drop();
  });

  it('keeps every entry as written, text a client chose included, and sums its columns', async () => {
    const log = await open();
    log.append(entry('req_one', { time: new Date(Date.now() - 2).toISOString() }));
    const odd = entry('req_odd', { model: 'line\nbreak "quoted" \u0000 nul', user_agent: 'tab\there ✓ 😀', user: 'bob', time: new Date(Date.now() - 1).toISOString() });
    log.append(odd, { request: '{"a":1}', upstream_request: null, response: '{"b":2}' });
    log.append(entry('req_unpriced', { upstream: 'other/x', cost_usd: null }));
    await log.flush();
    const read = await log.read();
    expect(read.map((one) => one.request_id)).toEqual(['req_one', 'req_odd', 'req_unpriced']);
    // The NUL the database's JSON cannot hold is kept as U+FFFD; the rest exactly.
    expect(read[1]).toEqual(Object.assign({}, odd, { model: 'line\nbreak "quoted" \ufffd nul' }));
    // The bodies are kept with their own entry, and only there.
    const stored = await rows('SELECT bodies, entry FROM switchyard_request_log WHERE bodies IS NOT NULL');
    expect(stored).toHaveLength(1);
    expect(JSON.parse(stored[0].entry).request_id).toBe('req_odd');
    expect(JSON.parse(stored[0].bodies)).toMatchObject({ request_id: 'req_odd', request: '{"a":1}', upstream_request: null, response: '{"b":2}' });

    const usage = await log.sumUsage({ by: 'model' });
    expect(usage.rows.find((row) => row.key === 'up/m')).toEqual({ key: 'up/m', requests: 2, input_tokens: 20, output_tokens: 10, cached_tokens: 0, cost_usd: 0.002 });
    expect(usage.rows.find((row) => row.key === 'other/x')).toMatchObject({ requests: 1, cost_usd: null });
    expect((await log.sumUsage({ by: 'user', since: Date.now() + 60_000 })).total.requests).toBe(0);
    // An entry's own time decides `since`, not when it was written.
    log.append(entry('req_long_ago', { time: new Date(Date.now() - 7_200_000).toISOString() }));
    await log.flush();
    expect((await log.read({ since: Date.now() - 3_600_000 })).map((one) => one.request_id)).not.toContain('req_long_ago');
    expect((await log.read({ since: Date.now() - 10_800_000 })).map((one) => one.request_id)).toContain('req_long_ago');
    expect((await log.sumUsage({ by: 'user', since: Date.now() - 3_600_000 })).total.requests).toBe(3);
  });

  it('sums usage as the entries themselves sum, for every grouping and since, and per day and model for the inspector', async () => {
    const log = await open();
    await queryDatabase(database.url, 'DELETE FROM switchyard_request_log');
    const upstreams = ['a/x', 'b/y', null, 'ollama/llama3'];
    const entries: RequestLogEntry[] = [];
    for (let index = 0; index < 300; index += 1) {
      const upstream = upstreams[index % 4]!;
      entries.push(
        entry(`req_sum_${index}`, {
          // Three days of entries, 17 minutes apart: days and quarter hours of every kind.
          time: new Date(Date.now() - (300 - index) * 17 * 60_000).toISOString(),
          user: `user${index % 3}`,
          protocol: index % 5 === 0 ? 'gemini' : 'openai-chat',
          upstream,
          input_tokens: upstream === null && index % 8 === 2 ? null : 10 + index,
          output_tokens: upstream === null ? null : index % 7,
          cached_tokens: index % 6 === 0 ? 3 : null,
          cost_usd: upstream === 'ollama/llama3' ? null : upstream === null ? 0 : 0.0001 * index,
        }),
      );
    }
    for (const one of entries) log.append(one);
    await log.flush();
    for (const by of ['model', 'provider', 'user', 'protocol', 'day'] as const) {
      for (const since of [undefined, Date.now() - 86_400_000]) {
        const expected = aggregateUsage(entries.filter((one) => since === undefined || Date.parse(one.time) >= since), by);
        expect(await log.sumUsage({ by, since }), `${by} since ${since}`).toEqual(expected);
      }
    }
    // The inspector's chart: per UTC day and model, everyone's or one user's.
    const sorted = (groups: DayModelUsage[]) =>
      groups.map((group) => Object.assign({}, group, { cost_usd: group.cost_usd === null ? null : Math.round(group.cost_usd * 1e9) / 1e9 })).sort((a, b) => `${a.day} ${a.model}`.localeCompare(`${b.day} ${b.model}`));
    for (const since of [Date.now() - 7 * 86_400_000, Date.now() - 86_400_000]) {
      for (const user of [undefined, 'user1']) {
        const expected = sumUsageByDayAndModel(entries.filter((one) => Date.parse(one.time) >= since), user);
        expect(expected.length).toBeGreaterThan(user === undefined ? 4 : 2);
        expect(sorted(await log.sumUsageByDayAndModel({ since, user })), `since ${since}, ${user ?? 'everyone'}`).toEqual(sorted(expected));
      }
    }
  });

  it('follows what two instances write, each entry once', async () => {
    const [first, second] = [await open(), await open()];
    const follower = first.follow();
    await follower.skipExisting();
    for (let index = 0; index < 5; index += 1) {
      first.append(entry(`req_first_${index}`));
      second.append(entry(`req_second_${index}`));
    }
    await Promise.all([first.flush(), second.flush()]);
    const seen = [...(await follower.poll()), ...(await follower.poll())].map((one) => one.request_id);
    expect(seen.sort()).toEqual([0, 1, 2, 3, 4].flatMap((index) => [`req_first_${index}`, `req_second_${index}`]).sort());
    expect(await follower.poll()).toEqual([]);
  });

  it('keeps entries while the database is away, writes each once when it is back, and counts what a stop loses', async () => {
    const target = new URL(database.url);
    const relay = new DatabaseRelay({ host: target.hostname, port: Number(target.port) });
    await relay.listen();
    target.port = String(relay.port);
    const said: string[] = [];
    const log = await openPostgresRequestLog({ url: target.toString(), maxAgeMs: 86_400_000, maxBytes: 2 ** 30, log: (line) => said.push(line) });
    try {
      relay.stop();
      log.append(entry('req_away_1'));
      log.append(entry('req_away_2'));
      await log.flush();
      expect(said.join('\n')).toContain('unreachable');
      relay.start();
      await log.flush();
      const stored = await rows("SELECT entry FROM switchyard_request_log WHERE entry LIKE '%req_away_%'");
      expect(stored.map((row) => JSON.parse(row.entry).request_id).sort()).toEqual(['req_away_1', 'req_away_2']);

      relay.stop();
      log.append(entry('req_lost'));
      await log.close();
      expect(said.at(-1)).toMatch(/^LOST 1 request log entries: the request log database .* was still unreachable when the gateway stopped$/);
      expect(said.join('\n')).not.toContain(new URL(database.url).password);
    } finally {
      await log.close();
      await relay.close();
    }
  });

  it('prunes by age, then the oldest rows until the table fits', async () => {
    const log = await open();
    await queryDatabase(database.url, 'DELETE FROM switchyard_request_log');
    for (let index = 0; index < 200; index += 1) log.append(entry(`req_bulk_${index}`, { user_agent: 'x'.repeat(2000) }));
    await log.flush();
    // The first 50 as if written three days ago.
    await rows("UPDATE switchyard_request_log SET logged_at = now() - interval '3 days' WHERE entry ~ 'req_bulk_([0-9]|[1-4][0-9])\"'");
    const database_ = await openPostgresDatabase({ url: database.url, maxConnections: 1, log: () => undefined, purpose: 'test' });
    try {
      await prunePostgresRequestLog(database_, { maxAgeMs: 86_400_000, maxBytes: 2 ** 30 });
      const [{ count, oldest }] = await rows("SELECT count(*)::int AS count, min(logged_at) AS oldest FROM switchyard_request_log WHERE entry LIKE '%req_bulk_%'");
      expect(count).toBe(150);
      expect(new Date(oldest).getTime()).toBeGreaterThan(Date.now() - 86_400_000);
      const [{ bytes }] = await rows("SELECT pg_total_relation_size('switchyard_request_log')::float8 AS bytes");
      await prunePostgresRequestLog(database_, { maxAgeMs: 86_400_000, maxBytes: bytes / 2 });
      const [{ left, newest }] = await rows("SELECT count(*)::int AS left, max(entry) FILTER (WHERE entry LIKE '%req_bulk_199%') AS newest FROM switchyard_request_log");
      expect(left).toBeLessThan(150);
      expect(newest).toContain('req_bulk_199');
    } finally {
      await database_.close();
    }
  });
});

describe.skipIf(DATABASE_URL)('the request log on PostgreSQL', () => {
  it.skip(NO_DATABASE_REASON, () => undefined);
});
