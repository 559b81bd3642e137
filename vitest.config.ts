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
    // A run migrates one database for all its test servers.
    globalSetup: ['tests/global-setup.ts'],
    // Every file starts its own server on its own database; files run in parallel workers. API files
    // mostly wait (on timers, the database), so more files than cores keep the cores busy: three on
    // SQLite, two on PostgreSQL (whose server takes its share of the cores). Browser files run two at
    // once (one alone keeps about half of the two cores busy: 848 s for the stage against 1,224 s);
    // every read of a page that may still be settling is a poll, so the load does not fail them.
    pool: 'forks',
    // An API or CLI worker runs file after file in one process, importing the product once rather
    // than per file (about 1.5 s a file): the SQLite API stage 264 → 169 s. So a file must leave the
    // process as it found it: it sets environment variables through vi.stubEnv (put back by
    // vi.unstubAllEnvs) rather than by assigning process.env, and closes every server it starts.
    // Browser files keep a process each: sharing one, tickets-panel's journey failed in two runs of three.
    isolate: Boolean(process.env.ATENDE_E2E),
    maxWorkers: process.env.ATENDE_E2E || process.env.ATENDE_TEST_DB === 'pg' ? 2 : 3,
    // In CI (a loaded 2-core machine) a failed test runs once more: a step that waited too long
    // does not fail the run, and vitest still reports the test as retried.
    retry: process.env.ATENDE_REQUIRE_E2E === '1' ? 1 : 0,
  },
});
