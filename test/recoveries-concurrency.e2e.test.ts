import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './helpers/test-gateway.js';

const BIN = fileURLToPath(new URL('../bin/gateway.js', import.meta.url));
const PARALLEL = 24;

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ providers: { mock: { type: 'mock', slowIntervalMs: 5, slowPieces: 40 } } });
});
afterAll(() => gateway.close());

function runCli(args: string[], home: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'recoveries', ...args], { env: { PATH: process.env.PATH, SWITCHYARD_HOME: home } });
    let stdout = '';
    child.stdout.on('data', (data) => (stdout += data));
    child.on('exit', (code) => resolve({ code, stdout }));
  });
}

/** One interrupted stream: read the first bytes, then go away. */
async function interruptedStream(index: number): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-load', 'content-type': 'application/json', 'x-switchyard-on-disconnect': index % 2 ? 'cancel' : 'drain' },
    body: JSON.stringify({ model: 'mock-slow', stream: true, messages: [{ role: 'user', content: `request ${index}` }] }),
    signal: controller.signal,
  });
  const reader = response.body!.getReader();
  await reader.read();
  controller.abort();
  return response.headers.get('x-request-id')!;
}

describe('recoveries under concurrency', () => {
  it('accounts for every record while another process lists and removes records', async () => {
    const home = dirname(gateway.store.directory);
    const recorded = Array.from({ length: PARALLEL }, () => gateway.nextRecord());
    // The CLI loop runs in other processes, bounded in count, while the server writes records.
    const removed: string[] = [];
    const cliLoop = (async () => {
      for (let round = 0; round < 8; round += 1) {
        const listing = await runCli(['ls', '--json'], home);
        expect(listing.code).toBe(0);
        const { items } = JSON.parse(listing.stdout) as { items: Array<{ request_id: string }> };
        const target = items.at(-1)?.request_id;
        if (target && (await runCli(['rm', target], home)).code === 0) removed.push(target);
      }
    })();
    const ids = await Promise.all(Array.from({ length: PARALLEL }, (_, index) => interruptedStream(index)));
    await Promise.all(recorded);
    await cliLoop;
    expect(removed.length).toBeGreaterThan(0);

    expect(new Set(gateway.interrupted.map((generation) => generation.requestId))).toEqual(new Set(ids));
    const listed = (await gateway.store.list()).map((summary) => summary.request_id);
    expect(new Set(listed)).toEqual(new Set(ids.filter((id) => !removed.includes(id))));
    // Every file on disk is valid JSON, and there is one record file per listed record.
    const index = JSON.parse(readFileSync(join(gateway.store.directory, 'index.json'), 'utf8'));
    expect(index).toBeTruthy();
    const files = readdirSync(join(gateway.store.directory, 'records'));
    expect(files.sort()).toEqual(listed.map((id) => `${id}.json`).sort());
    for (const file of files) JSON.parse(readFileSync(join(gateway.store.directory, 'records', file), 'utf8'));
  });
});
