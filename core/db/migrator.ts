import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { ConfigError } from '../config/load-config.js';
import type { Database } from './database.js';

/** The core's migrations folder: `migrations/` in the source tree, `dist/migrations/` when built. */
export const coreMigrationsDir = fileURLToPath(new URL('../../migrations', import.meta.url));

interface MigrationFile {
  name: string;
  file: string;
}

const MIGRATION_FILE = /^(\d{14}_[\w-]+)\.(ts|js)$/;

/** Files of one folder, named without extension so a migration keeps its name between tsx and the build. */
function migrationFiles(dir: string): MigrationFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => MIGRATION_FILE.test(f) && !f.endsWith('.d.ts'))
    .map((f) => ({ name: f.match(MIGRATION_FILE)![1]!, file: path.join(dir, f) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Core migrations first, then each plugin's in plugin order: one migrations table for all. */
export function createMigrationSource(pluginDirs: string[] = []): Knex.MigrationSource<MigrationFile> {
  return {
    async getMigrations() {
      return [coreMigrationsDir, ...pluginDirs].flatMap(migrationFiles);
    },
    getMigrationName: (migration) => migration.name,
    async getMigration(migration) {
      return (await import(pathToFileURL(migration.file).href)) as Knex.Migration;
    },
  };
}

export interface MigrationStatus {
  done: string[];
  pending: string[];
  /** Applied migrations whose files are gone: those of a plugin removed from the installation. */
  missing: string[];
}

/** `20250101000000_kanban_boards` → `kanban`: migration files carry their owner's name (STYLE.md). */
function ownerOf(migration: string): string {
  return /^\d{14}_([a-z][a-z0-9-]*)_/.exec(migration)?.[1] ?? 'unknown';
}

/**
 * One line per plugin whose applied migrations have no file any more. Its tables stay: removing a
 * plugin loses no data, and putting it back finds them.
 */
export function describeMissing(missing: string[]): string[] {
  const byOwner = new Map<string, string[]>();
  for (const name of missing) byOwner.set(ownerOf(name), [...(byOwner.get(ownerOf(name)) ?? []), name]);
  return [...byOwner].map(
    ([owner, names]) =>
      `plugin ${owner} is no longer installed: its applied migrations (${names.join(', ')}) are kept and its tables left in place`,
  );
}

export class Migrator {
  private readonly config: Knex.MigratorConfig;

  constructor(
    private readonly db: Database,
    pluginDirs: string[] = [],
  ) {
    // Knex refuses to run when an applied migration has no file; a removed plugin must not stop the others.
    this.config = { migrationSource: createMigrationSource(pluginDirs), tableName: 'knex_migrations', disableMigrationsListValidation: true };
  }

  async status(): Promise<MigrationStatus> {
    const [done, pending] = (await this.db.migrate.list(this.config)) as [{ name: string }[], MigrationFile[]];
    const known = new Set((await this.config.migrationSource!.getMigrations([])).map((m) => (m as MigrationFile).name));
    const doneNames = done.map((m) => m.name);
    return { done: doneNames, pending: pending.map((m) => m.name), missing: doneNames.filter((name) => !known.has(name)) };
  }

  /** Runs every pending migration as one batch (one rollback undoes it) and reports each by name. */
  async latest(onMigrated: (name: string) => void = () => {}): Promise<string[]> {
    const [, applied] = (await this.db.migrate.latest(this.config)) as [number, string[]];
    applied.forEach(onMigrated);
    return applied;
  }

  /** Rolls back the last batch; refused when one of its migrations belongs to a plugin no longer installed. */
  async rollback(): Promise<string[]> {
    const { missing } = await this.status();
    const lastBatch: string[] = await this.db('knex_migrations')
      .where('batch', this.db('knex_migrations').max('batch'))
      .pluck('name');
    const gone = lastBatch.filter((name) => missing.includes(name));
    if (gone.length > 0) {
      throw new ConfigError(`cannot roll back: ${describeMissing(gone)[0]}; put the plugin back to roll its migrations back`);
    }
    const [, names] = (await this.db.migrate.rollback(this.config)) as [number, string[]];
    return names;
  }
}
