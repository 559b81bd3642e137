#!/usr/bin/env node
// The README's test command: build, type check, lint, then the test layers of DESIGN.md §9.
// API tests run on SQLite always and on PostgreSQL when ATENDE_TEST_PG_URL is set; browser tests
// run when a chromium is found. Anything skipped is said loudly at the end; with
// ATENDE_REQUIRE_E2E=1 (CI) a missing browser or database is a failure, not a skip.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const required = process.env.ATENDE_REQUIRE_E2E === '1';
const chromium = process.env.ATENDE_CHROMIUM ?? '/usr/bin/chromium';
const skipped = [];

function run(title, command, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`\n✖ ${title} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
  console.log(`✔ ${title} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/**
 * Runs steps that need nothing of each other at once (each mostly one core: on two cores they end
 * sooner together), each one's output printed whole when it ends; fails when any failed.
 */
async function together(steps) {
  const results = await Promise.all(
    steps.map(
      ([title, command, args]) =>
        new Promise((resolve) => {
          const started = Date.now();
          const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
          let output = '';
          child.stdout.on('data', (chunk) => (output += chunk));
          child.stderr.on('data', (chunk) => (output += chunk));
          child.on('close', (status, signal) => {
            console.log(`\n▶ ${title}${output ? `\n${output.trimEnd()}` : ''}`);
            if (status === 0) console.log(`✔ ${title} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
            else console.error(`\n✖ ${title} failed (exit ${status ?? signal})`);
            resolve(status ?? 1);
          });
        }),
    ),
  );
  const failed = results.find((status) => status !== 0);
  if (failed !== undefined) process.exit(failed);
}

const vitest = ['node_modules/vitest/vitest.mjs', 'run'];

await together([
  ['build', 'npm', ['run', 'build', '--silent']],
  ['typecheck', 'npm', ['run', 'typecheck', '--silent']],
  ['lint', 'npm', ['run', 'lint', '--silent']],
]);
run('unit, API (SQLite) and CLI tests', 'node', [...vitest, 'tests/unit', 'tests/api', 'tests/cli']);

if (!process.env.ATENDE_TEST_REDIS_URL) {
  skipped.push('API tests of several nodes on one Redis (set ATENDE_TEST_REDIS_URL=redis://… to run them)');
}

if (process.env.ATENDE_TEST_PG_URL) {
  run('API tests on PostgreSQL', 'node', [...vitest, 'tests/api'], { ATENDE_TEST_DB: 'pg' });
} else {
  skipped.push('API tests on PostgreSQL (set ATENDE_TEST_PG_URL=postgres://… to run them)');
}

const e2eFiles = existsSync('tests/e2e') ? readdirSync('tests/e2e').filter((f) => f.endsWith('.test.ts')) : [];
if (e2eFiles.length === 0) {
  console.log('\n(no browser tests yet)');
} else if (existsSync(chromium)) {
  run('browser tests (chromium)', 'node', [...vitest, 'tests/e2e'], { ATENDE_E2E: '1', ATENDE_CHROMIUM: chromium });
} else {
  skipped.push(`browser tests (${chromium} not found; apt install chromium)`);
}

if (skipped.length > 0) {
  const banner = '!'.repeat(72);
  console.log(`\n${banner}\nSKIPPED:\n${skipped.map((s) => `  - ${s}`).join('\n')}\n${banner}`);
  if (required) {
    console.error('ATENDE_REQUIRE_E2E=1: nothing may be skipped.');
    process.exit(1);
  }
}
console.log('\nAll tests passed.');
