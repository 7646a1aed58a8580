import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { HOT_PATH_FILES, HOT_PATH_RULES, type HotPathRule } from './hot-path-files.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Where a hot-path rule is broken in `text`: `rule:line` (1-based), in the order found. */
function findBrokenRules(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (rule: HotPathRule, node: ts.Node) => found.push(`${rule}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
  const visit = (node: ts.Node) => {
    if (ts.isObjectLiteralExpression(node)) {
      if (node.properties.length > 1 && ts.isSpreadAssignment(node.properties[0]!)) report('leading-spread', node);
      if (node.properties.some((property) => ts.isGetAccessorDeclaration(property) || ts.isSetAccessorDeclaration(property))) report('literal-accessor', node);
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
      if (node.expression.text === 'TextDecoder') report('text-decoder', node);
      if (node.expression.text === 'AbortController') report('abort-controller', node);
    }
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && ['node:stream', 'stream', 'node:stream/promises'].includes(node.moduleSpecifier.text)) {
      report('node-stream', node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('source conventions (CONTRIBUTING.md, "Code")', () => {
  it('the check finds each rule broken, and only where it is', () => {
    const probe = [
      'const a = { ...b, c: 1 };', // 1
      'const d = { c: 1, ...b };',
      'const e = { ...b };',
      'const f = {', // 4
      '  ...b,',
      '  ...g,',
      '};',
      'const h = { get x() { return 1; } };', // 8
      'class K { get x() { return 1; } }',
      'const decoder = new TextDecoder();', // 10
      "import { Readable } from 'node:stream';", // 11
      'const controller = new AbortController();', // 12
      "import { StringDecoder } from 'node:string_decoder';",
    ].join('\n');
    expect(findBrokenRules('probe.ts', probe)).toEqual(['leading-spread:1', 'leading-spread:4', 'literal-accessor:8', 'text-decoder:10', 'node-stream:11', 'abort-controller:12']);
  });

  it('every rule is justified by a measurement, and the hot-path list names files that exist under src/', () => {
    for (const [rule, why] of Object.entries(HOT_PATH_RULES)) expect(why, rule).toMatch(/\d/);
    expect(HOT_PATH_FILES.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
    expect(HOT_PATH_FILES.filter((file) => !file.startsWith('src/') || file.endsWith('.test.ts'))).toEqual([]);
    expect(new Set(HOT_PATH_FILES).size).toBe(HOT_PATH_FILES.length);
  });

  it('every stream decoder and encoder of every protocol is on the list', () => {
    const protocols = readdirSync(join(ROOT, 'src', 'protocols'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(protocols.length).toBeGreaterThanOrEqual(4);
    const missing = protocols.flatMap((protocol) => ['decode-stream.ts', 'encode-stream.ts'].map((file) => `src/protocols/${protocol}/${file}`)).filter((file) => existsSync(join(ROOT, file)) && !HOT_PATH_FILES.includes(file));
    expect(missing).toEqual([]);
  });

  it('the hot-path files keep the Node 20 engine rules (test/hot-path-files.ts says why each)', () => {
    const found = HOT_PATH_FILES.flatMap((file) => findBrokenRules(file, readFileSync(join(ROOT, file), 'utf8')).map((where) => `${file} ${where}`));
    expect(found).toEqual([]);
  });
});
