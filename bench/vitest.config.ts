import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The whole benchmark and the profiling tools of bench/, each in its quick mode against the built gateway: run by
// `npm run test:bench-tools` (and CI), not by `npm test`, which they would slow by a minute.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['bench/tools.test.ts', 'bench/suite.test.ts', 'bench/settle.test.ts'],
    testTimeout: 120_000,
    maxWorkers: 1,
  },
});
