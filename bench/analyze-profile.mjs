#!/usr/bin/env node
// Where a .cpuprofile (node --cpu-prof) spends its time: self time by function and by file or
// package, as a share of all samples (idle and GC included, listed separately).
//
//   node bench/analyze-profile.mjs <file.cpuprofile | folder> [--top 25]
// A folder means every .cpuprofile in it, added together.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const target = process.argv[2];
const topPosition = process.argv.indexOf('--top');
const top = topPosition > 0 ? Number(process.argv[topPosition + 1]) : 25;
if (!target) {
  console.error('usage: node bench/analyze-profile.mjs <file.cpuprofile | folder> [--top N]');
  process.exit(2);
}
const files = statSync(target).isDirectory()
  ? readdirSync(target).filter((name) => name.endsWith('.cpuprofile')).map((name) => join(target, name))
  : [target];

/** A short, stable name for where a function lives: src file, package, or node internal. */
function whereOf(url) {
  if (!url) return '(native)';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (packageMatch) return `${packageMatch[1]}/${packageMatch[2].split('/').slice(-1)[0]}`;
  if (path.startsWith(ROOT)) return relative(ROOT, path);
  return path;
}

function groupOf(url) {
  if (!url) return '(native / V8)';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (packageMatch) return packageMatch[1];
  if (path.startsWith(ROOT)) return relative(ROOT, path).split('/').slice(0, 2).join('/');
  if (path.startsWith('node:')) return path.split('/')[0].replace(/^node:internal.*/, 'node:internal');
  return path;
}

const byFunction = new Map();
const byGroup = new Map();
const inclusive = new Map();
let total = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map();
  // timeDeltas[i] is the time before samples[i]: weight each sample by its interval.
  profile.samples.forEach((id, index) => counts.set(id, (counts.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const keyOf = (callFrame) => {
    const name = callFrame.functionName || '(anonymous)';
    return callFrame.url ? `${whereOf(callFrame.url)}:${name}` : name;
  };
  // Inclusive: each function on the stack of a sample gets the sample once, however deep it recurses.
  for (const [id, time] of counts) {
    const seen = new Set();
    for (let current = id; current !== undefined; current = parents.get(current)) seen.add(keyOf(nodes.get(current).callFrame));
    for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + time);
  }
  for (const [id, time] of counts) {
    const { callFrame } = nodes.get(id);
    const name = callFrame.functionName || '(anonymous)';
    const key = callFrame.url ? `${whereOf(callFrame.url)}:${name}` : name;
    byFunction.set(key, (byFunction.get(key) ?? 0) + time);
    const group = ['(idle)', '(garbage collector)', '(program)'].includes(name) ? name : groupOf(callFrame.url);
    byGroup.set(group, (byGroup.get(group) ?? 0) + time);
    total += time;
  }
}

const print = (title, map, limit) => {
  console.log(`\n${title}`);
  const busy = total - (byGroup.get('(idle)') ?? 0);
  for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
    const share = key === '(idle)' ? '' : `${((100 * time) / busy).toFixed(1).padStart(5)}% of busy`;
    console.log(`  ${((100 * time) / total).toFixed(1).padStart(5)}%  ${share.padEnd(14)}  ${key}`);
  }
};
console.log(`${files.length} profile(s), ${(total / 1e6).toFixed(1)} s sampled, ${((total - (byGroup.get('(idle)') ?? 0)) / 1e6).toFixed(1)} s busy`);
print('self time by file or package', byGroup, 20);
print(`self time by function (top ${top})`, byFunction, top);
const ownCode = new Map([...inclusive].filter(([key]) => key.startsWith('dist/') || key.startsWith('h3/') || key.startsWith('srvx/') || key.startsWith('undici/')));
print(`total time (self + callees) of the gateway's own functions and h3/srvx/undici (top ${top})`, ownCode, top);
