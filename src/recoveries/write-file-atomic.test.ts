import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTempFileName, writeFileAtomic } from './write-file-atomic.js';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'switchyard-atomic-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('replaces the content, sets the mode of a file that existed with another, and leaves no temp file', async () => {
    const file = join(folder, 'index.json');
    await writeFile(file, 'old');
    await chmod(file, 0o644);
    await writeFileAtomic(file, 'new', { mode: 0o600 });
    expect(await readFile(file, 'utf8')).toBe('new');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(folder)).toEqual(['index.json']);
  });

  it('lets concurrent writers of one file finish with one whole content', async () => {
    const file = join(folder, 'index.json');
    const contents = Array.from({ length: 20 }, (_, position) => String(position).repeat(10_000));
    await Promise.all(contents.map((content) => writeFileAtomic(file, content, { mode: 0o600 })));
    expect(contents).toContain(await readFile(file, 'utf8'));
    expect(await readdir(folder)).toEqual(['index.json']);
  });

  it('leaves the old file and no temp file when the write fails', async () => {
    const file = join(folder, 'missing-folder', 'index.json');
    await expect(writeFileAtomic(file, 'x', { mode: 0o600 })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(folder)).toEqual([]);
  });

  it('names temp files so that readers and the sweep recognise them', () => {
    expect(isTempFileName('.index.json.123.0f0e.tmp')).toBe(true);
    expect(isTempFileName('index.json')).toBe(false);
    expect(isTempFileName('req.tmp')).toBe(false);
  });
});
