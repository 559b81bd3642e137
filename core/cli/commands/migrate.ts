import { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { usageError } from '../errors.js';
import { resolveDir, type CliContext } from '../context.js';
import { createMigrator, migrateWithProgress } from '../migrations.js';
import { describeMissing } from '../../db/migrator.js';

interface MigrateOptions {
  dir?: string;
  rollback?: boolean;
  status?: boolean;
}

export function migrateCommand(ctx: CliContext): Command {
  return new Command('migrate')
    .description('run the core and plugin migrations that are pending, in order')
    .option('--dir <path>', 'folder holding atende.config.json and data/ (default: current folder)')
    .option('--rollback', 'roll back the last batch of migrations')
    .option('--status', 'list the migrations done and pending; change nothing')
    .action((options: MigrateOptions) => runMigrate(options, ctx));
}

async function runMigrate(options: MigrateOptions, ctx: CliContext): Promise<void> {
  if (options.rollback && options.status) throw usageError('--rollback and --status cannot be used together');
  const config = loadConfig({ dir: resolveDir(options.dir), env: ctx.env, generateSecrets: false });
  const { closeDatabase, createDatabase } = await import('../../db/database.js');
  const db = createDatabase(config.database);
  try {
    const migrator = await createMigrator(db, config);
    const { done, pending, missing } = await migrator.status();
    describeMissing(missing).forEach(ctx.print);
    if (options.status) {
      for (const name of done) ctx.print(`done     ${name}`);
      for (const name of pending) ctx.print(`pending  ${name}`);
      ctx.print(`${done.length} done, ${pending.length} pending`);
    } else if (options.rollback) {
      const names = await migrator.rollback();
      for (const name of names) ctx.print(`rolled back ${name}`);
      if (names.length === 0) ctx.print('nothing to roll back');
    } else {
      const ran = await migrateWithProgress(migrator, ctx.print);
      ctx.print(ran === 0 ? 'database schema already up to date' : `${ran} migration${ran === 1 ? '' : 's'} applied`);
    }
  } finally {
    await closeDatabase(db);
  }
}
