import type { Config } from '../config/config.schema.js';
import type { Database } from '../db/database.js';
import { Migrator } from '../db/migrator.js';

/** The migrator over the core's migrations, then those of every installed plugin: one order for all. */
export async function createMigrator(db: Database, config: Config): Promise<Migrator> {
  // Loaded on use, like the other heavy modules: importing the plugins' code is not free.
  const { pluginMigrationDirs } = await import('../plugins/plugin-loader.js');
  return new Migrator(db, await pluginMigrationDirs(config));
}

/** Runs what is pending with one progress line per migration; answers how many ran. */
export async function migrateWithProgress(migrator: Migrator, print: (line: string) => void): Promise<number> {
  const applied = await migrator.latest((name) => print(`migrated ${name}`));
  return applied.length;
}
