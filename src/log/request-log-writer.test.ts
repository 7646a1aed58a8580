import { mkdtempSync } from 'node:fs';
import { readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { aggregateUsage } from './aggregate-usage.js';
import { readRequestLog, type RequestLogEntry } from './request-log.js';
import { pruneRequestLog, RequestLogWriter } from './request-log-writer.js';

const DAY = 86_400_000;
const directories: string[] = [];
const freshDirectory = () => {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-log-'));
  directories.push(directory);
  return directory;
};
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

function entry(id: string, fields: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return Object.assign(
    {
      request_id: id, time: '2026-11-01T12:00:00.000Z', user: 'alice', protocol: 'openai-chat', endpoint: '/v1/chat/completions', model: 'm',
      upstream: 'openai/gpt-4o', attempts: 1, mode: 'translate', status: 200, stream: false, duration_ms: 10, ttfb_ms: 5, input_tokens: 100,
      output_tokens: 10, cached_tokens: 0, cache_write_tokens: null, reasoning_tokens: null, cost_usd: 0.001, interrupted_reason: null, resumed_from: null, warnings: [], user_agent: null,
    } satisfies RequestLogEntry,
    fields,
  );
}

describe('the request log writer', () => {
  it('writes queued entries in one append, to files only their owner reads', async () => {
    const directory = join(freshDirectory(), 'log');
    const writer = new RequestLogWriter({ directory, maxAgeMs: 30 * DAY, maxBytes: 200 * 2 ** 20 });
    writer.append(entry('a'));
    writer.append(entry('b'), { request: '{}', upstream_request: null, response: '{"ok":true}' });
    // Nothing is written while the request path runs: only later, in a batch.
    expect(await readdir(directory).catch(() => [])).toEqual([]);
    await writer.flush();
    expect((await readRequestLog(directory)).map((logged) => logged.request_id)).toEqual(['a', 'b']);
    const names = await readdir(directory);
    expect(names.filter((name) => name.endsWith('.bodies.jsonl'))).toHaveLength(1);
    for (const name of names) expect((await stat(join(directory, name))).mode & 0o777).toBe(0o600);
  });

  it('keeps every line whole when flushes follow one another faster than the disk writes them', async () => {
    // Each flush hands a buffer to the disk and the next batch may reuse one given back: a
    // buffer reused before its write is over would put later lines in place of earlier ones.
    const directory = join(freshDirectory(), 'log');
    const writer = new RequestLogWriter({ directory, maxAgeMs: 30 * DAY, maxBytes: 200 * 2 ** 20 });
    const ids: string[] = [];
    const flushes: Promise<void>[] = [];
    for (let batch = 0; batch < 20; batch += 1) {
      for (let index = 0; index < 200; index += 1) {
        const id = `b${batch}-${index}`;
        ids.push(id);
        writer.append(entry(id, { user_agent: 'x'.repeat(200) }));
      }
      flushes.push(writer.flush());
      // Some batches wait for the disk, others not: both kinds of reuse happen.
      if (batch % 4 === 3) await flushes.at(-1);
    }
    await Promise.all(flushes);
    expect((await readRequestLog(directory)).map((logged) => logged.request_id)).toEqual(ids);
  });

  it('writes through one open file, and makes the folder and file again when they were removed from outside', async () => {
    const directory = join(freshDirectory(), 'log');
    let now = Date.parse('2026-11-01T12:00:00.000Z');
    const errors: unknown[] = [];
    const writer = new RequestLogWriter({ directory, maxAgeMs: 30 * DAY, maxBytes: 200 * 2 ** 20, now: () => now, onError: (error) => errors.push(error) });
    writer.append(entry('a'));
    await writer.flush();
    writer.append(entry('b'));
    await writer.flush();
    expect((await readRequestLog(directory)).map((logged) => logged.request_id)).toEqual(['a', 'b']);
    await rm(directory, { recursive: true, force: true });
    // Ten seconds on, the next write opens the file again: the folder and the file are made anew, 0700 and 0600.
    now += 10_000;
    writer.append(entry('c'));
    await writer.close();
    expect((await readRequestLog(directory)).map((logged) => logged.request_id)).toEqual(['c']);
    const files = await readdir(directory);
    expect(files).toHaveLength(1);
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    expect((await stat(join(directory, files[0]!))).mode & 0o777).toBe(0o600);
    expect(errors).toEqual([]);
  });

  it('skips a line cut short, and reads from `since` on', async () => {
    const directory = freshDirectory();
    await writeFile(join(directory, '2026-11-01T00-00-00-000Z.jsonl'), `${JSON.stringify(entry('old', { time: '2026-11-01T00:00:00.000Z' }))}\n{"request_id":"cut`);
    await writeFile(join(directory, '2026-11-02T00-00-00-000Z.jsonl'), `${JSON.stringify(entry('new', { time: '2026-11-02T00:00:00.000Z' }))}\n`);
    expect((await readRequestLog(directory)).map((logged) => logged.request_id)).toEqual(['old', 'new']);
    expect((await readRequestLog(directory, { since: Date.parse('2026-11-01T12:00:00Z') })).map((logged) => logged.request_id)).toEqual(['new']);
  });
});

describe('pruning', () => {
  it('removes files older than maxDays, then the oldest beyond maxMb, never the one being written', async () => {
    const directory = freshDirectory();
    const now = Date.parse('2026-11-30T00:00:00Z');
    const stems = ['2026-10-01T00-00-00-000Z', '2026-11-20T00-00-00-000Z', '2026-11-25T00-00-00-000Z', '2026-11-29T00-00-00-000Z'];
    for (const [index, stem] of stems.entries()) {
      await writeFile(join(directory, `${stem}.jsonl`), 'x'.repeat(1000));
      await writeFile(join(directory, `${stem}.bodies.jsonl`), 'y'.repeat(1000));
      const modified = new Date(Date.parse(stem.replace(/T(\d\d)-(\d\d)-(\d\d)-(\d{3})Z/, 'T$1:$2:$3.$4Z')) + index);
      await utimes(join(directory, `${stem}.jsonl`), modified, modified);
      await utimes(join(directory, `${stem}.bodies.jsonl`), modified, modified);
    }
    // 30 days: the October file goes; 4500 bytes: the 20 November one goes too (2000 bytes each).
    const removed = await pruneRequestLog(directory, { maxAgeMs: 30 * DAY, maxBytes: 4500, now, keep: stems[3] });
    expect(removed).toEqual([stems[0], stems[1]]);
    expect((await readdir(directory)).sort()).toEqual([`${stems[2]}.bodies.jsonl`, `${stems[2]}.jsonl`, `${stems[3]}.bodies.jsonl`, `${stems[3]}.jsonl`]);
    // The file being written stays even when it alone is too big.
    expect(await pruneRequestLog(directory, { maxAgeMs: 30 * DAY, maxBytes: 10, now, keep: stems[3] })).toEqual([stems[2]]);
    expect(await readdir(directory)).toHaveLength(2);
  });
});

describe('usage', () => {
  it('sums per group; a group with an unknown price has no cost; a count spends no tokens', () => {
    const report = aggregateUsage(
      [
        entry('1', { cost_usd: 0.5 }),
        entry('2', { cost_usd: 0.25, cached_tokens: 40 }),
        entry('3', { upstream: 'ollama/llama3', cost_usd: null }),
        entry('4', { upstream: 'ollama/llama3', cost_usd: null, input_tokens: null, output_tokens: null, status: 502 }),
        entry('5', { upstream: null, mode: null, cost_usd: 0, input_tokens: 33, output_tokens: null }),
      ],
      'provider',
    );
    expect(report.rows).toEqual([
      { key: 'openai', requests: 2, input_tokens: 200, output_tokens: 20, cached_tokens: 40, cost_usd: 0.75 },
      { key: '(none)', requests: 1, input_tokens: 0, output_tokens: 0, cached_tokens: 0, cost_usd: 0 },
      { key: 'ollama', requests: 2, input_tokens: 100, output_tokens: 10, cached_tokens: 0, cost_usd: null },
    ]);
    expect(report.total).toEqual({ key: 'total', requests: 5, input_tokens: 300, output_tokens: 30, cached_tokens: 40, cost_usd: 0.75 });
    expect(report.costIncomplete).toBe(true);
  });
});
