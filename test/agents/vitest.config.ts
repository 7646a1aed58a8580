import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The real coding agents against the gateway; run by `npm run test:agents`, not by `npm test`.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/agents/**/*.test.ts'],
    exclude: ['test/agents/node_modules/**'],
    // One agent run is a real CLI process; each test bounds its own run well below this.
    testTimeout: 180_000,
    hookTimeout: 60_000,
    // The machine has two cores: one agent file per core.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
