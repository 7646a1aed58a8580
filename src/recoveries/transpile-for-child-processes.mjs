// Test support, plain JavaScript on purpose: Node 20 cannot run TypeScript, and the concurrency
// and CLI tests need the real modules in other threads and processes, which vitest's transform
// does not reach. TypeScript's transpileModule strips the types file by file (no type check, a
// few milliseconds each); `node_modules` is linked next to the output so bare imports resolve.
// Not compiled into dist/: tsconfig.build.json takes .ts files only.
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

export async function transpileForChildProcesses(projectRoot, sources, outputFolder) {
  const files = [];
  for (const source of sources) {
    if (source.endsWith('.ts')) files.push(source);
    else for (const name of await readdir(join(projectRoot, source))) files.push(join(source, name));
  }
  for (const file of files.filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))) {
    const source = join(projectRoot, file);
    const output = join(outputFolder, relative(projectRoot, source)).replace(/\.ts$/, '.js');
    const { outputText } = ts.transpileModule(await readFile(source, 'utf8'), {
      fileName: source,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    await mkdir(dirname(output), { recursive: true });
    await writeFile(output, outputText);
  }
  await writeFile(join(outputFolder, 'package.json'), '{"type":"module"}\n');
  await symlink(join(projectRoot, 'node_modules'), join(outputFolder, 'node_modules'), 'dir').catch((error) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return outputFolder;
}
