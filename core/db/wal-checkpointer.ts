import type { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { startSqliteThread, stopSqliteThread } from './sqlite-thread.js';

/** How often the checkpointer copies the WAL's new pages into the database file. */
export const CHECKPOINT_EVERY_MS = 200;

/**
 * The checkpointer thread: its own connection on the WAL database, running a PASSIVE checkpoint
 * every `workerData.every` ms. A passive checkpoint takes no lock a writer or a reader waits for;
 * once it has copied every page, the writer's next transaction starts the WAL again from its
 * beginning (after sqlite-thread.ts's prelude).
 */
const CHECKPOINTER_SOURCE = `
const db = new Database(workerData.filename, { fileMustExist: true });
setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {}
}, workerData.every);
`;

/**
 * Checkpoints of a SQLite file off the event loop. By default the connection whose commit takes
 * the WAL past 1,000 pages checkpoints inside that commit: copying the pages and two fsyncs, on
 * the main thread, stalling every socket frame and inbound message behind it. This thread
 * checkpoints instead, and the writer's automatic checkpoints are off while it runs.
 */
export class WalCheckpointer {
  private worker: Worker | undefined;
  private closed = false;

  constructor(private readonly filename: string) {}

  /**
   * Starts the thread and turns `writer`'s automatic checkpoints off, once the writer has opened
   * the file (its connection's set-up). Should the thread stop by itself, the writer checkpoints
   * again as SQLite does by default, so the WAL never grows without end.
   */
  start(writer: BetterSqlite3.Database): void {
    if (this.worker || this.closed) return;
    const worker = startSqliteThread(CHECKPOINTER_SOURCE, { filename: this.filename, every: CHECKPOINT_EVERY_MS });
    // A failure ends the thread (below); it never throws in the process.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.closed || !writer.open) return;
      this.worker = undefined;
      writer.pragma('wal_autocheckpoint = 1000');
    });
    writer.pragma('wal_autocheckpoint = 0');
    this.worker = worker;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.worker) await stopSqliteThread(this.worker);
    this.worker = undefined;
  }
}
