import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import knexPkg, { type Knex } from 'knex';
import objection from 'objection';
import type { Config } from '../config/config.schema.js';
import type { Logger } from '../logger.js';
import { nameReads, type PgConnection } from './pg-statements.js';
import { attachReaderPool, capHeavyReads, closeReaderPool } from './reader-pool.js';
import { registerSearchFold } from './search-fold.js';
import { SqliteClient } from './sqlite-client.js';
import { WalCheckpointer } from './wal-checkpointer.js';

// knex 3 has no ESM exports map: the named export must come from the default import.
const { knex } = knexPkg;
const { knexSnakeCaseMappers } = objection;

export type Database = Knex;

/**
 * Knex on SQLite (WAL, foreign keys, busy timeout, transactions that take the write lock at
 * BEGIN, so CLI commands work beside a running server) or PostgreSQL. Columns are snake_case in the
 * database and camelCase in code; the mappers translate both ways.
 */
export function createDatabase(database: Config['database'], logger?: Logger): Database {
  const mappers = knexSnakeCaseMappers();
  // knex prints its own warnings to the console; route them to the log (or drop them) instead.
  const log = {
    warn: (message: unknown) => logger?.warn({ knex: message }, 'database warning'),
    error: (message: unknown) => logger?.error({ knex: message }, 'database error'),
    deprecate: (message: unknown) => logger?.debug({ knex: message }, 'database deprecation'),
    debug: (message: unknown) => logger?.debug({ knex: message }, 'database debug'),
  };
  if (database.client === 'pg') {
    const db: Knex = knex({
      client: 'pg',
      connection: database.connectionString,
      pool: {
        min: 0,
        max: 10,
        // Reads run as named statements with one generic plan each (pg-statements.ts).
        afterCreate(conn: PgConnection, done: (err: Error | null, conn: unknown) => void) {
          nameReads(conn, db, (err) => done(err, conn));
        },
      },
      log,
      ...mappers,
    });
    capHeavyReads(db);
    return db;
  }
  const onFile = database.filename !== ':memory:' && database.filename !== '';
  if (onFile) mkdirSync(path.dirname(database.filename), { recursive: true });
  // Checkpoints on a thread of their own, not inside a commit on the event loop.
  const checkpointer = onFile ? new WalCheckpointer(database.filename) : undefined;
  const db = knex({
    client: SqliteClient,
    connection: { filename: database.filename },
    useNullAsDefault: true,
    log,
    // One connection: SQLite serialises writers anyway, and one handle keeps transactions simple.
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: BetterSqlite3.Database, done: (err: Error | null, conn: unknown) => void) {
        conn.pragma('journal_mode = WAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        conn.pragma('synchronous = NORMAL');
        registerSearchFold(conn);
        checkpointer?.start(conn);
        done(null, conn);
      },
    },
    ...mappers,
  });
  // Heavy reads (search, dashboard periods) on reader threads: no statement holds the event loop.
  attachReaderPool(db, database.filename);
  if (checkpointer) checkpointers.set(db, checkpointer);
  return db;
}

const checkpointers = new WeakMap<Database, WalCheckpointer>();

/** Closes `db`: its SQLite threads first (readers, checkpointer), then its connections. */
export async function closeDatabase(db: Database): Promise<void> {
  await closeReaderPool(db);
  await checkpointers.get(db)?.close();
  await db.destroy();
}

export function isPostgres(db: Database): boolean {
  return db.client.config.client === 'pg';
}
