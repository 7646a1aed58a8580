import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A clone anywhere must run `npm test` and `npm run bench` on its own: nothing in the repository
 * may read a file beside it, and a comment may only send the reader to a document the repository
 * holds. Files are walked rather than listed by git, so a new file is checked before it is added.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Folders that are built, installed or written by runs, not written by hand. */
const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules', 'dist', 'coverage', 'results']);
const TEXT_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json', '.md', '.sh', '.yml', '.yaml', '']);
/** Files whose paths may be resolved by the code that reads them: everything but the Markdown. */
const CODE_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json', '.sh', '.yml', '.yaml', '']);
const FIXTURES = join(ROOT, 'test', 'fixtures') + sep;

/** Every hand-written text file of the repository, as paths relative to its root. */
function repositoryFiles(): string[] {
  const found: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name) && !entry.name.startsWith('.switchyard-test')) walk(path);
        continue;
      }
      if (!entry.isFile() || entry.name === 'package-lock.json') continue;
      if (path.startsWith(FIXTURES) && entry.name !== 'README.md') continue;
      if (TEXT_EXTENSIONS.has(extname(entry.name))) found.push(relative(ROOT, path));
    }
  };
  walk(ROOT);
  return found.sort();
}

/** Relative paths in code that climb out of the repository from the file's own folder. */
function pathsOutside(file: string, text: string, root: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?<![\w.])((?:\.\.\/)+)([\w@-][\w@.-]*)/g)) {
    const target = resolve(root, dirname(file), match[1]! + match[2]!);
    if (relative(root, target).startsWith('..')) found.push(match[0]);
  }
  return found;
}

/** Upper-case Markdown names (`README.md`) mentioned in a file, which must be documents we hold. */
function mentionedDocuments(text: string): string[] {
  return [...text.matchAll(/\b([A-Z][A-Z0-9_-]*\.md)\b/g)].map((match) => match[1]!);
}

/** `docs/<name>.md` paths mentioned in a file. */
function mentionedDocsPages(text: string): string[] {
  return [...text.matchAll(/\bdocs\/([a-z0-9-]+\.md)\b/g)].map((match) => match[1]!);
}

/** The sections a `docs/protocols.md §2.5, §7.7` citation names. */
function citedProtocolSections(text: string): string[] {
  const sections: string[] = [];
  for (const match of text.matchAll(/protocols\.md(?:\)|`)?,?\s(§\d+(?:\.\d+)?(?:,? §\d+(?:\.\d+)?)*)/g)) {
    for (const section of match[1]!.matchAll(/§(\d+(?:\.\d+)?)/g)) sections.push(section[1]!);
  }
  return sections;
}

/** The numbers of the numbered headings of docs/protocols.md (`## 2. …` → 2, `### 2.5 …` → 2.5). */
function protocolsDocSections(): Set<string> {
  const text = readFileSync(join(ROOT, 'docs', 'protocols.md'), 'utf8');
  return new Set([...text.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((match) => match[1]!));
}

describe('the repository stands on its own', () => {
  const files = repositoryFiles();
  const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

  it('the checks find what they look for, and only that', () => {
    const root = '/checkout';
    // Built from pieces, so that this file does not trip its own checks.
    const up = (count: number) => '../'.repeat(count);
    const probe = [`new URL('${up(4)}elsewhere/data/', import.meta.url)`, `new URL('${up(2)}test/fixtures/', import.meta.url)`, `import { x } from '${up(1)}core/usage.js';`].join('\n');
    expect(pathsOutside('src/protocols/gemini/a.test.ts', probe, root)).toEqual([`${up(4)}elsewhere`]);
    expect(pathsOutside('bench/lib/bodies.mjs', probe, root)).toEqual([`${up(4)}elsewhere`]);
    // The same text one folder higher climbs out twice.
    expect(pathsOutside('test/a.test.ts', probe, root)).toEqual([`${up(4)}elsewhere`, `${up(2)}test`]);
    const guide = ['GUIDE', 'md'].join('.');
    expect(mentionedDocuments(`see ${['NOTES', 'md'].join('.')} and ${guide}, not notes.md`)).toEqual([['NOTES', 'md'].join('.'), guide]);
    expect(citedProtocolSections('(docs/protocols.md §2.5, §7.7) and docs/protocols.md §0')).toEqual(['2.5', '7.7', '0']);
  });

  it('walks the sources, tests, bench and docs', () => {
    expect(files.length).toBeGreaterThan(200);
    for (const expected of ['src/core/usage.ts', 'test/helpers/fixtures.ts', 'bench/lib/bodies.mjs', 'docs/protocols.md', 'CONTRIBUTING.md']) {
      expect(files).toContain(expected);
    }
  });

  it('no code refers to a path outside the repository', () => {
    const found = files
      .filter((file) => CODE_EXTENSIONS.has(extname(file)))
      .flatMap((file) => pathsOutside(file, read(file), ROOT).map((path) => `${file}: ${path}`));
    expect(found).toEqual([]);
  });

  it('every Markdown document a file names is in the repository', () => {
    const held = new Set(files.filter((file) => file.endsWith('.md')).map((file) => basename(file)));
    const found = files.flatMap((file) => mentionedDocuments(read(file)).filter((name) => !held.has(name)).map((name) => `${file}: ${name}`));
    expect(found).toEqual([]);
  });

  it('every docs/ page a file names exists, and every cited section of docs/protocols.md is a heading there', () => {
    const sections = protocolsDocSections();
    const missing = files.flatMap((file) => {
      const text = read(file);
      const pages = mentionedDocsPages(text).filter((page) => !existsSync(join(ROOT, 'docs', page)));
      const cited = citedProtocolSections(text).filter((section) => !sections.has(section));
      return [...pages.map((page) => `${file}: docs/${page}`), ...cited.map((section) => `${file}: docs/protocols.md §${section}`)];
    });
    expect(missing).toEqual([]);
  });
});
