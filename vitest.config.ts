import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Plugins import the SDK by its package name; the tests run the sources, so it is the source module.
  resolve: { alias: { 'atende/plugin': fileURLToPath(new URL('./core/plugin-sdk.ts', import.meta.url)) } },
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    // Browser tests drive chromium on a 2-core machine: give their steps room under load.
    testTimeout: process.env.ATENDE_E2E ? 90_000 : 30_000,
    // ...and their expect.poll() waits (1 s by default) room for a page that renders late under load.
    expect: { poll: { timeout: process.env.ATENDE_E2E ? 10_000 : 1_000 } },
    hookTimeout: 60_000,
    // Every file starts its own server on its own database; files run in parallel workers. On SQLite
    // API files mostly wait, so three share two cores well (two thirds of the wall time of one); on
    // PostgreSQL the database takes the cores and three gain nothing, and browser files each drive
    // a chromium: those stay one at a time.
    pool: 'forks',
    maxWorkers: process.env.ATENDE_E2E || process.env.ATENDE_TEST_DB === 'pg' ? 1 : 3,
  },
});
