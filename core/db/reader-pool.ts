import { AsyncLocalStorage } from 'node:async_hooks';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';
import { Semaphore } from '../semaphore.js';
import { LOADED, startSqliteThread, stopSqliteThread } from './sqlite-thread.js';

/** Two cores: one reader each, the main thread writing between them. */
export const SQLITE_READERS = 2;

/** How much of the database file a reader maps into memory (address space; the pages stay the OS page cache's). */
const MMAP_SIZE = 1 << 30;

/** Prepared statements a reader keeps (heavy reads are few distinct shapes). */
const STATEMENTS_KEPT = 100;

/**
 * A reader thread: its own read-only connection on the WAL database, answering the rows of the SQL
 * it is sent (after sqlite-thread.ts's prelude).
 */
const READER_SOURCE = `
const db = new Database(workerData.filename, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
// Pages read through a memory map, not a read() call each: a search probes a page per ticket it walks.
db.pragma('mmap_size = ' + workerData.mmapSize);
const statements = new Map();
function prepared(sql) {
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size >= workerData.kept) statements.delete(statements.keys().next().value);
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}
parentPort.on('message', ({ id, sql, bindings }) => {
  try {
    parentPort.postMessage({ id, rows: prepared(sql).all(bindings) });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: err.message, code: err.code } });
  }
});
`;

interface Pending {
  resolve(rows: unknown[]): void;
  reject(err: Error): void;
}

class Reader {
  readonly worker: Worker;
  readonly pending = new Map<number, Pending>();

  constructor(filename: string, onExit: (reader: Reader) => void) {
    this.worker = startSqliteThread(READER_SOURCE, { filename, kept: STATEMENTS_KEPT, mmapSize: MMAP_SIZE });
    this.worker.on('message', (answer: typeof LOADED | { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
      if (answer === LOADED) return;
      const request = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      if (!answer.error) request?.resolve(answer.rows!);
      else request?.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', () => {
      this.fail(new Error('SQLite reader thread exited'));
      onExit(this);
    });
  }

  private fail(err: Error): void {
    for (const request of this.pending.values()) request.reject(err);
    this.pending.clear();
  }
}

/**
 * Reader threads on a SQLite file, started at the first read: a heavy read (a search, a dashboard
 * period) runs on one of them, so the event loop keeps serving sockets, lists and inbound messages
 * meanwhile. Each read goes to the reader with the fewest in flight.
 */
export class ReaderPool {
  private readers: Reader[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly filename: string,
    private readonly size = SQLITE_READERS,
  ) {}

  read(sql: string, bindings: readonly unknown[]): Promise<unknown[]> {
    if (this.closed) return Promise.reject(new Error('the SQLite readers are closed'));
    const reader = this.leastBusy();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      reader.pending.set(id, { resolve, reject });
      reader.worker.postMessage({ id, sql, bindings });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const readers = this.readers;
    this.readers = [];
    await Promise.all(readers.map((reader) => stopSqliteThread(reader.worker)));
  }

  private leastBusy(): Reader {
    if (this.readers.length < this.size) {
      const reader = new Reader(this.filename, (gone) => (this.readers = this.readers.filter((r) => r !== gone)));
      this.readers.push(reader);
      return reader;
    }
    return this.readers.reduce((best, reader) => (reader.pending.size < best.pending.size ? reader : best));
  }
}

const pools = new WeakMap<Knex, ReaderPool>();

/**
 * PostgreSQL: heavy reads at once, at most, of the pool's connections (database.ts: 10): one core
 * fewer than the machine has, and no more than 4. The other connections stay for lists, live frames
 * and inbound messages, whose short queries would otherwise queue in the pool behind ten searches,
 * and a core stays for them where the database runs beside the server (one VPS): on two cores,
 * inbound messages at 200/s while 10 clients searched took 218-225 ms (p50) with 4 heavy reads at
 * once, 124-129 ms with 2 and 66 ms with 1 (the searches: 216, 203-227 and 290 ms). The heavy
 * reads beyond wait here, in arrival order.
 */
export const PG_HEAVY_READS = Math.min(4, Math.max(1, availableParallelism() - 1));

const heavyReads = new WeakMap<Knex, Semaphore>();

/** The database whose cap the current async context already holds a place of (a whole search): its reads take no second one. */
const holding = new AsyncLocalStorage<Knex>();

/** Caps the heavy reads of `db` (knex on PostgreSQL) at PG_HEAVY_READS connections. */
export function capHeavyReads(db: Knex): void {
  heavyReads.set(db, new Semaphore(PG_HEAVY_READS));
}

/** Whether the current async context is inside a heavy read (heavyRead) of `db`. */
export function inHeavyRead(db: Knex): boolean {
  return holding.getStore() === db;
}

/**
 * Runs `work`, a heavy read of several queries one after the other (a whole search: its term, its
 * matches, its page), in one place of the PostgreSQL cap: every query of it waits with it, not only
 * its heaviest, so ten searches hold at most PG_HEAVY_READS connections between them. Elsewhere
 * (SQLite) `work` just runs: its readRows go to the reader threads.
 */
export function heavyRead<T>(db: Knex, work: () => Promise<T>): Promise<T> {
  const cap = heavyReads.get(db);
  if (!cap || inHeavyRead(db)) return work();
  return cap.run(() => holding.run(db, work));
}

/**
 * Gives `db` (knex on a SQLite file) reader threads for readRows. An in-memory database has no file
 * for another connection to open: its reads stay on its connection.
 */
export function attachReaderPool(db: Knex, filename: string): void {
  if (filename === ':memory:' || filename === '') return;
  pools.set(db, new ReaderPool(filename));
}

/** Stops the reader threads of `db`, if it has any (shutdown, before the database closes). */
export async function closeReaderPool(db: Knex): Promise<void> {
  await pools.get(db)?.close();
}

/** What better-sqlite3 binds, as knex's dialect formats it: dates as epoch milliseconds, booleans as 0 or 1. */
function sqliteBinding(value: unknown): unknown {
  if (value instanceof Date) return value.valueOf();
  if (typeof value === 'boolean') return Number(value);
  return value;
}

/**
 * The rows of a read-only query, like `await query`, but on a reader thread when `db` has them
 * (SQLite on a file; never inside a transaction, which must see its own writes). Elsewhere the
 * query runs as any other: on PostgreSQL a light read, kept as a named statement. Columns come
 * back through the same mappers as any query.
 */
export async function readOffLoop<T>(db: Knex, query: Knex.QueryBuilder): Promise<T[]> {
  const pool = pools.get(db);
  if (!pool) return (await query) as T[];
  const { sql, bindings } = query.toSQL().toNative();
  const rows = await pool.read(sql, bindings.map(sqliteBinding));
  return (db.client as Knex.Client & { postProcessResponse(rows: unknown, context: unknown): T[] }).postProcessResponse(rows, undefined);
}

/** The rows of a heavy read-only query: readOffLoop in a place of heavyRead's cap (PostgreSQL's; SQLite has none). */
export function readRows<T>(db: Knex, query: Knex.QueryBuilder): Promise<T[]> {
  return heavyRead(db, () => readOffLoop(db, query));
}
