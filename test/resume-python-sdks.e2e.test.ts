import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCutRig, type CutRig } from './helpers/cut-rig.js';

/**
 * Resume on retry (docs/recoveries.md) with the official Python SDKs: a streaming request cut
 * mid-stream by a TCP proxy, then the same request again, as a program does after the error. The
 * retry gets the whole answer and the upstream sees one request. Without Python or its SDKs the
 * test is skipped: `python3 -m pip install openai anthropic google-genai`.
 */
const SCRIPT = fileURLToPath(new URL('./python/resume-after-cut.py', import.meta.url));
const run = promisify(execFile);

async function pythonSdksMissing(): Promise<string | undefined> {
  try {
    await run('python3', ['-c', 'import openai, anthropic; from google import genai'], { timeout: 60_000 });
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code === 'ENOENT' ? 'python3 is not installed' : 'the Python SDKs are not installed (python3 -m pip install openai anthropic google-genai)';
  }
}

const missing = await pythonSdksMissing();
if (missing) console.log(`resume-python-sdks.e2e: skipped, ${missing}`);

const PIECES = ['Python', ' clients', ' get', ' the', ' answer', ' they', ' already', ' paid', ' for', '.'];
const TEXT = PIECES.join('');
const PIECE_MS = 60;

let rig: CutRig;
beforeAll(async () => {
  rig = await startCutRig(PIECES, PIECE_MS);
});
afterAll(async () => {
  await rig?.close();
});

interface Asked {
  ok: boolean;
  text?: string;
  error?: string;
}

describe.skipIf(missing !== undefined)('a Python SDK stream cut mid-way, then the same request again', () => {
  it.each(['openai-chat', 'anthropic-messages', 'gemini'])('%s: the retry gets the whole text, the upstream saw one request', { timeout: 60_000 }, async (client) => {
    const key = `sk-python-${client}`;
    const before = rig.upstream.requests;
    const cuts = rig.proxy.cuts;
    rig.proxy.cutNext('cut-after-body');
    const { stdout } = await run('python3', [SCRIPT, client, rig.proxy.url, key], { timeout: 45_000 });
    const { first, retry } = JSON.parse(stdout) as { first: Asked; retry: Asked };
    expect(rig.proxy.cuts).toBe(cuts + 1);
    expect(first.ok, `the cut request should fail: ${JSON.stringify(first)}`).toBe(false);
    expect(retry).toEqual({ ok: true, text: TEXT });
    expect(rig.upstream.requests).toBe(before + 1);
    // The resume is noted on the record in the background, once the drain's record is final.
    let record: { resumed_by?: string } | undefined;
    for (let tries = 0; tries < 100 && record?.resumed_by === undefined; tries += 1) {
      if (tries > 0) await sleep(20);
      const listed = await fetch(`${rig.gateway.url}/v1/recoveries`, { headers: { authorization: `Bearer ${key}` } });
      [record] = ((await listed.json()) as { items: Array<{ resumed_by?: string }> }).items;
    }
    expect(record?.resumed_by).toMatch(/\S/);
  });
});
