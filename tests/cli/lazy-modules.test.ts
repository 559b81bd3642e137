import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, expect, it } from 'vitest';
import { bin, cleanEnv, initSite, serving } from '../helpers/cli.js';

// The real binary (bin, running dist/): what a server that uses none of them keeps out of its memory.
let work: string | undefined;

afterEach(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Packages only some installations use, loaded by their first use (CommonJS ones, which Node lists in require.cache). */
const OPTIONAL = ['mongodb', 'exceljs', '@redis/client', 'google-auth-library'];

it('a server on SQLite without Redis, MongoDB, a spreadsheet or Dialogflow loads none of their modules', async () => {
  work = mkdtempSync(path.join(tmpdir(), 'atende-lazy-modules-')); // one per attempt: a retry's init finds no config
  const init = await initSite(work, 'site', { email: 'super@atende.test', password: 'lazy-secret-123' });
  expect(init.exitCode, init.stderr).toBe(0);
  // Prints the packages of the modules loaded, as the server exits.
  const probe = path.join(work, 'probe.cjs');
  writeFileSync(
    probe,
    `process.on('exit', () => {
      const packages = new Set(Object.keys(require.cache).map((file) => /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(file)?.[1]).filter(Boolean));
      process.stderr.write('PACKAGES ' + JSON.stringify([...packages]) + '\\n');
    });`,
  );
  const sub = execa('node', ['--require', probe, bin, 'serve', '--dir', 'site'], { cwd: work, env: { ...cleanEnv, ATENDE_LOG_LEVEL: 'warn' }, extendEnv: false, reject: false });
  await serving(sub, 60_000);
  sub.kill('SIGTERM');
  const { stderr, exitCode } = await sub;
  expect(exitCode, stderr).toBe(0);
  const packages = JSON.parse(/^PACKAGES (.*)$/m.exec(stderr)?.[1] ?? '[]') as string[];
  expect(packages, stderr).toContain('knex');
  expect(OPTIONAL.filter((name) => packages.includes(name))).toEqual([]);
}, 120_000);
