import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migratedPgTemplate, migratedSqliteTemplate, testDatabase } from './helpers/server.js';

/**
 * Made once for the run rather than by every test server (a migration is about 1.3 s): a migrated
 * SQLite database each server's file starts as a copy of, and on PostgreSQL a migrated database
 * each server's database is created from (CREATE DATABASE … TEMPLATE, a copy of its files).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-tests-'));
  project.provide('sqliteTemplate', await migratedSqliteTemplate(dir));
  const pg = testDatabase === 'pg' ? await migratedPgTemplate() : undefined;
  if (pg) project.provide('pgTemplate', pg.name);
  return async () => {
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  };
}
