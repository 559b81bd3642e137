import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migratedPgTemplate, migratedSqliteTemplate, testDatabase } from './helpers/server.js';

/**
 * Made once for the run rather than by every test server (a migration is about 1.3 s), on the
 * database the run's servers use: a migrated SQLite file each server's starts as a copy of, or on
 * PostgreSQL a migrated database each server's is created from (CREATE DATABASE … TEMPLATE).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-tests-'));
  const pg = testDatabase === 'pg' ? await migratedPgTemplate() : undefined;
  if (pg) project.provide('pgTemplate', pg.name);
  else project.provide('sqliteTemplate', await migratedSqliteTemplate(dir));
  return async () => {
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  };
}
