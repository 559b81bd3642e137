import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
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
}

export class Migrator {
  private readonly config: Knex.MigratorConfig;

  constructor(
    private readonly db: Database,
    pluginDirs: string[] = [],
  ) {
    this.config = { migrationSource: createMigrationSource(pluginDirs), tableName: 'knex_migrations' };
  }

  async status(): Promise<MigrationStatus> {
    const [done, pending] = (await this.db.migrate.list(this.config)) as [{ name: string }[], MigrationFile[]];
    return { done: done.map((m) => m.name), pending: pending.map((m) => m.name) };
  }

  /** Runs every pending migration as one batch (one rollback undoes it) and reports each by name. */
  async latest(onMigrated: (name: string) => void = () => {}): Promise<string[]> {
    const [, applied] = (await this.db.migrate.latest(this.config)) as [number, string[]];
    applied.forEach(onMigrated);
    return applied;
  }

  async rollback(): Promise<string[]> {
    const [, names] = (await this.db.migrate.rollback(this.config)) as [number, string[]];
    return names;
  }
}
