import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SOURCE = join(ROOT, 'src');

/** The runtime source files: everything under src/ but the tests. */
function sourceFiles(): string[] {
  return readdirSync(SOURCE, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(SOURCE, file));
}

/** The 1-based lines of the object literals that start with a spread and have more members after it. */
function leadingSpreadLines(fileName: string, text: string): number[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node) && node.properties.length > 1 && ts.isSpreadAssignment(node.properties[0]!)) {
      lines.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

describe('source conventions (CONTRIBUTING.md, "Code")', () => {
  it('the check finds a leading spread with members after it, and only that', () => {
    const probe = ['const a = { ...b, c: 1 };', 'const d = { c: 1, ...b };', 'const e = { ...b };', 'const f = {', '  ...b,', '  ...g,', '};'].join('\n');
    expect(leadingSpreadLines('probe.ts', probe)).toEqual([1, 4]);
  });

  it('no object literal in src/ starts with a spread followed by more members (a new hidden class per object on Node 20)', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => leadingSpreadLines(file, readFileSync(file, 'utf8')).map((line) => `${relative(ROOT, file)}:${line}`));
    expect(found).toEqual([]);
  });
});
