// Loaded into a measured process with `node --import` by bench/gc-per-stream.mjs: sums the
// garbage collector's pauses of the main thread by kind, and on SIGUSR2 writes the totals so far
// to $SWITCHYARD_OBSERVER_OUT/gc-<pid>.json (written whole, then renamed, so a reader never sees half).
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';

const folder = process.env.SWITCHYARD_OBSERVER_OUT;
const totals = { minorCount: 0, minorMs: 0, majorCount: 0, majorMs: 0, otherCount: 0, otherMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = entry.detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      totals.minorCount += 1;
      totals.minorMs += entry.duration;
    } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      totals.majorCount += 1;
      totals.majorMs += entry.duration;
    } else {
      totals.otherCount += 1;
      totals.otherMs += entry.duration;
    }
  }
}).observe({ entryTypes: ['gc'] });

if (folder) {
  process.on('SIGUSR2', () => {
    const file = join(folder, `gc-${process.pid}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(totals));
    renameSync(`${file}.tmp`, file);
  });
}
