import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Native addons (better-sqlite3, llama.cpp) are safest in child processes, not worker threads.
    pool: 'forks',
    testTimeout: 30_000,
    reporters: ['default', './test/reporters/summary-line.ts'],
    hookTimeout: 60_000,
  },
});
