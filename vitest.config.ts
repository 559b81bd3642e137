import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    // Browser tests drive chromium on a 2-core machine: give their steps room under load.
    testTimeout: process.env.ATENDE_E2E ? 90_000 : 30_000,
    hookTimeout: 60_000,
    // Every file starts its own server on its own database; files run in parallel workers.
    pool: 'forks',
  },
});
