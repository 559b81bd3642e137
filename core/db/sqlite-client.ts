import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import type BetterSqlite3 from 'better-sqlite3';
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

/** Prepared statements kept per connection: the same SQL text comes back on every list and message. */
export const STATEMENT_CACHE_SIZE = 500;

/** What knex hands to `_query`: the compiled SQL, its bindings and, after, the answer. */
interface QueryObject {
  sql: string;
  bindings?: unknown[];
  options?: unknown;
  response?: unknown;
  context?: { lastID: number | bigint; changes: number };
}

/**
 * The prepared statements of one connection by SQL text, least recently used dropped first.
 * Preparing costs as much as running a short query; SQLite re-prepares a kept statement by itself
 * when the schema changes under it.
 */
class StatementCache {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(private readonly db: BetterSqlite3.Database) {}

  get(sql: string): BetterSqlite3.Statement {
    const kept = this.statements.get(sql);
    // One still being iterated cannot run again until it is done: such a query gets its own.
    if (kept && kept.busy) return this.db.prepare(sql);
    if (kept) {
      this.statements.delete(sql);
      this.statements.set(sql, kept);
      return kept;
    }
    const statement = this.db.prepare(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value!);
    return statement;
  }
}

const caches = new WeakMap<BetterSqlite3.Database, StatementCache>();

function statementCache(db: BetterSqlite3.Database): StatementCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new StatementCache(db)));
  return cache;
}

type KnexSqliteInternals = {
  _formatBindings(bindings: unknown[] | undefined): unknown[];
  _optSafeIntegers(options: unknown): boolean | undefined;
};

/**
 * better-sqlite3 through knex, the driver this Node runs, with write transactions that wait for the
 * lock and prepared statements kept by SQL text (knex prepares every query anew).
 */
export class SqliteClient extends BetterSqlite3Client {
  _driver(): unknown {
    return SqliteDriver;
  }

  /** knex's better-sqlite3 `_query`, with the statement from the connection's cache. */
  async _query(connection: BetterSqlite3.Database, obj: QueryObject): Promise<QueryObject> {
    if (!obj.sql) throw new Error('The query is empty');
    if (!connection) throw new Error('No connection provided');
    const self = this as unknown as KnexSqliteInternals;
    const safeIntegers = self._optSafeIntegers(obj.options);
    // A statement told to answer bigints would keep saying so: such queries are prepared apart.
    const statement = safeIntegers === undefined ? statementCache(connection).get(obj.sql) : connection.prepare(obj.sql).safeIntegers(safeIntegers);
    const bindings = self._formatBindings(obj.bindings);
    if (statement.reader) {
      obj.response = statement.all(bindings);
      return obj;
    }
    const response = statement.run(bindings);
    obj.response = response;
    obj.context = { lastID: response.lastInsertRowid, changes: response.changes };
    return obj;
  }

  override transaction(container: unknown, config: unknown, outerTx: unknown): Knex.Transaction {
    return new ImmediateTransaction(this, container, config, outerTx) as unknown as Knex.Transaction;
  }
}
