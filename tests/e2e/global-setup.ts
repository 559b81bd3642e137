import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migratedSqliteTemplate } from '../helpers/server.js';

/** Made once for the browser run rather than by every file: a migrated SQLite database each test server starts from. */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-e2e-'));
  project.provide('sqliteTemplate', await migratedSqliteTemplate(dir));
  return () => rmSync(dir, { recursive: true, force: true });
}
