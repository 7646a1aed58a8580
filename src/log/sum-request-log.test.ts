import { mkdtempSync } from 'node:fs';
import { appendFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { aggregateUsage, type UsageGrouping } from './aggregate-usage.js';
import { readRequestLog, type RequestLogEntry } from './request-log.js';
import { RequestLogWriter } from './request-log-writer.js';
import { sumRequestLog } from './sum-request-log.js';

const DAY = 86_400_000;
const GROUPINGS: UsageGrouping[] = ['model', 'provider', 'user', 'protocol', 'day'];
const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

async function freshLog(): Promise<string> {
  const directory = join(mkdtempSync(join(tmpdir(), 'switchyard-sum-')), 'log');
  directories.push(join(directory, '..'));
  await mkdir(directory);
  return directory;
}

function entry(index: number, fields: Partial<RequestLogEntry> = {}): RequestLogEntry {
  const upstreams = ['openai/gpt-4o', 'anthropic/claude-sonnet-4-5', 'ollama/llama3', null];
  const upstream = upstreams[index % upstreams.length];
  return Object.assign(
    {
      request_id: `req-${index}`, time: new Date(Date.parse('2026-11-01T00:00:00Z') + index * 97_000).toISOString(), user: `user-${index % 3}`,
      protocol: index % 2 ? 'openai-chat' : 'anthropic-messages', endpoint: '/v1/chat/completions', model: 'm', upstream, attempts: 1,
      mode: upstream === null ? null : 'translate', status: 200, stream: false, duration_ms: 10, ttfb_ms: 5, input_tokens: 100 + index,
      output_tokens: index % 5 === 0 ? null : 10, cached_tokens: index % 7, cache_write_tokens: null, reasoning_tokens: null,
      cost_usd: upstream === 'ollama/llama3' ? null : upstream === null ? 0 : 0.001 * (index % 4), interrupted_reason: null, resumed_from: null, warnings: [], user_agent: 'sdk/1.0',
    } satisfies RequestLogEntry,
    fields,
  );
}

/** What `gateway usage` printed before it read only the summed fields: every entry parsed whole. */
async function parsedWhole(directory: string, by: UsageGrouping, since?: number) {
  return aggregateUsage(await readRequestLog(directory, { since }), by);
}

describe('sumRequestLog', () => {
  it('sums what parsing every entry whole sums, for every grouping and --since, across reads and files', async () => {
    const directory = await freshLog();
    let now = 0;
    // Files of 1.5 MB (a tenth of maxBytes): the log spans two files, the first read in two pieces.
    const writer = new RequestLogWriter({ directory, maxAgeMs: 365 * DAY, maxBytes: 15 * 2 ** 20, now: () => now });
    for (let index = 0; index < 6000; index += 1) {
      const logged = entry(index);
      writer.append(logged);
      if (index % 500 === 499) {
        now = Date.parse(logged.time) + 1000;
        await writer.flush();
      }
    }
    await writer.close();
    expect(await readdir(directory)).toHaveLength(2);
    for (const by of GROUPINGS) {
      const summed = await sumRequestLog(directory, { by });
      expect(summed).toEqual(await parsedWhole(directory, by));
      expect(summed.total.requests).toBe(6000);
    }
    const since = Date.parse('2026-11-04T00:00:00Z');
    const recent = await sumRequestLog(directory, { by: 'user', since });
    expect(recent).toEqual(await parsedWhole(directory, 'user', since));
    expect(recent.total.requests).toBe(6000 - Math.ceil((since - Date.parse('2026-11-01T00:00:00Z')) / 97_000));
  });

  it('reads escaped, non-ASCII and oddly written entries as JSON does, and skips what JSON skips', async () => {
    const directory = await freshLog();
    const lines = [
      entry(1, { user: 'José 🚀', upstream: 'openai/gpt-4o' }),
      entry(2, { user: 'say "hi"\\', protocol: 'openai-chat' }),
      entry(3, { user: 'line\nbreak', upstream: 'ollama/llama3' }),
      entry(4, { upstream: 'ünï/côde', cost_usd: 1e-7 }),
      entry(5, { user_agent: `agent ${'x'.repeat(200_000)}`, warnings: ['"upstream":"fake/one","input_tokens":999999'] }),
      entry(6, { input_tokens: null, output_tokens: null, cost_usd: null }),
    ].map((value) => JSON.stringify(value));
    // The same entry with its keys in another order: still counted.
    const reordered = entry(7, { user: 'reordered' });
    lines.push(JSON.stringify(Object.fromEntries(Object.entries(reordered).reverse())));
    // A line cut short with the next entry written after it, and a line that is no entry: both skipped.
    const cut = JSON.stringify(entry(8));
    lines.push(cut.slice(0, cut.indexOf('"input_tokens"')) + JSON.stringify(entry(9)));
    lines.push('not an entry', '{"request_id":"no-time"}');
    await writeFile(join(directory, '2026-11-01T00-00-00-000Z.jsonl'), `${lines.join('\n')}\n`);
    // The server stopped mid-write: the last line has no newline.
    await appendFile(join(directory, '2026-11-01T00-00-00-000Z.jsonl'), JSON.stringify(entry(10)).slice(0, 80));
    // A line of more than the 1 MB read at once.
    await writeFile(join(directory, '2026-11-02T00-00-00-000Z.jsonl'), `${JSON.stringify(entry(11, { user_agent: 'y'.repeat(1_500_000) }))}\n`);

    for (const by of GROUPINGS) expect(await sumRequestLog(directory, { by })).toEqual(await parsedWhole(directory, by));
    const byUser = await sumRequestLog(directory, { by: 'user' });
    expect(byUser.total.requests).toBe(8);
    expect(byUser.rows.map((row) => row.key).sort()).toEqual(['José 🚀', 'line\nbreak', 'reordered', 'say "hi"\\', 'user-0', 'user-1', 'user-2'].sort());
    const byModel = await sumRequestLog(directory, { by: 'model' });
    expect(byModel.rows.find((row) => row.key === 'ünï/côde')).toEqual({ key: 'ünï/côde', requests: 1, input_tokens: 104, output_tokens: 10, cached_tokens: 4, cost_usd: 1e-7 });
    expect(byModel.rows.some((row) => row.key === 'fake/one')).toBe(false);
  });

  it('an empty or missing log sums to nothing', async () => {
    const directory = await freshLog();
    expect(await sumRequestLog(directory, { by: 'model' })).toEqual(await parsedWhole(directory, 'model'));
    expect((await sumRequestLog(join(directory, 'missing'), { by: 'day' })).total.requests).toBe(0);
  });
});
