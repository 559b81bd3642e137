import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import { SqliteDriver } from './sqlite-driver.js';

// knex types its public API only: its SQLite dialect classes are reached by path.
const require = createRequire(import.meta.url);
const BetterSqlite3Client = require('knex/lib/dialects/better-sqlite3/index.js') as typeof Knex.Client;
const SqliteTransaction = require('knex/lib/dialects/sqlite3/execution/sqlite-transaction.js') as new (
  client: Knex.Client,
  container: unknown,
  config: unknown,
  outerTx: unknown,
) => { query(conn: unknown, sql: string): Promise<unknown> };

/**
 * knex's BEGIN is deferred: a transaction that reads and then writes asks for the write lock only
 * at its first write, and fails at once with "database is locked" when another process (the
 * server beside a CLI command) wrote since the read. BEGIN IMMEDIATE takes the write lock first,
 * waiting up to the busy timeout for it, so concurrent writers queue instead of failing.
 */
class ImmediateTransaction extends SqliteTransaction {
  begin(conn: unknown): Promise<unknown> {
    return this.query(conn, 'BEGIN IMMEDIATE;');
  }
}

/** better-sqlite3 through knex, the driver this Node runs, with write transactions that wait for the lock. */
export class SqliteClient extends BetterSqlite3Client {
  _driver(): unknown {
    return SqliteDriver;
  }

  override transaction(container: unknown, config: unknown, outerTx: unknown): Knex.Transaction {
    return new ImmediateTransaction(this, container, config, outerTx) as unknown as Knex.Transaction;
  }
}
