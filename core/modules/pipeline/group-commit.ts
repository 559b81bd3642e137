import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Knex } from 'knex';
import { isPostgres } from '../../db/database.js';

/**
 * Items stored by one transaction at most: a backlog is worked off in transactions short enough
 * that their frames keep flowing (a new chat costs several statements on PostgreSQL).
 */
const BATCH_MAX = 100;

interface Waiting<I, O> {
  item: I;
  resolve(out: O): void;
  reject(err: unknown): void;
}

/**
 * On PostgreSQL, the connection a lane's busy stretch of batches writes on: taken from the pool once,
 * at the stretch's first batch, and given back when nothing is left to write, so that a batch never
 * queues for a connection behind the requests and per-message reads of the moment (the pool is
 * shared). A batch that failed gives its connection back (it may be the connection that broke);
 * the next batch takes one again. On SQLite, whose one connection every query shares, each
 * transaction takes it from the pool as any other query does.
 */
class ConnectionLease {
  private held?: Promise<unknown>;

  constructor(private readonly db: Knex) {}

  /** The transaction's config: the held connection (taken now if need be), or none on SQLite. */
  async config(): Promise<Knex.TransactionConfig | undefined> {
    if (!isPostgres(this.db)) return undefined;
    this.held ??= this.db.client.acquireConnection() as Promise<unknown>;
    const held = this.held;
    try {
      return { connection: await held };
    } catch (err) {
      if (this.held === held) this.held = undefined;
      throw err;
    }
  }

  /** Gives the connection back to the pool, if one is held. */
  release(): void {
    const held = this.held;
    this.held = undefined;
    held?.then(
      (connection) => {
        // knex tags a connection with the transaction using it and clears the tag only on the
        // connections it took itself: cleared here, or the pool's next queries would carry it.
        delete (connection as { __knexTxId?: string }).__knexTxId;
        return this.db.client.releaseConnection(connection);
      },
      () => undefined,
    );
  }
}

/**
 * Group commit: items submitted while a transaction is under way are written together by the next
 * one, so a burst costs a few commits, not one per item (the shape of InboundJournal.append).
 * `write` stores a batch and answers one result per item, in order; a batch that fails is rolled
 * back whole and its items are written again by the same `write`, one transaction each, so one
 * bad item fails alone (its caller retries or sets it aside) and the others are stored once.
 *
 * With `lanes` above 1 (PostgreSQL), up to that many transactions run at once, each on its own
 * connection: items that arrive while every running transaction is busy start another one, so the
 * database works on one batch while the process prepares the next and answers the last. SQLite has
 * one connection: one lane.
 *
 * Order: a lane writes items in the order submitted; batches of different lanes commit in either
 * order. Callers that need one key's items in order submit the next only after the previous one
 * resolved (the pipeline's chat serializer), so such items are never in two lanes at once.
 */
export class GroupCommit<I, O> {
  private waiting: Waiting<I, O>[] = [];
  /** Lanes running, and whether one of them is still gathering its first batch (it takes what is submitted now). */
  private running = 0;
  private gathering = false;
  private readonly lanes: number;

  constructor(
    private readonly db: Knex,
    private readonly write: (trx: Knex.Transaction, items: I[]) => Promise<O[]>,
    options: { lanes?: number } = {},
  ) {
    this.lanes = isPostgres(db) ? (options.lanes ?? 1) : 1;
  }

  /** Writes `item`; resolves with what `write` answered once its transaction committed. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.gathering && this.running < this.lanes) void this.lane(new ConnectionLease(this.db));
    });
  }

  /** Writes what is waiting, a batch at a time, until nothing is. */
  private async lane(lease: ConnectionLease): Promise<void> {
    this.running += 1;
    // Let the items of this moment join the first batch.
    this.gathering = true;
    await nextTurn();
    this.gathering = false;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, BATCH_MAX);
      let outs: O[];
      try {
        outs = await this.transaction(lease, batch.map((w) => w.item));
      } catch (err) {
        if (batch.length === 1) batch[0]!.reject(err);
        else await this.oneByOne(lease, batch);
        continue;
      }
      batch.forEach((w, i) => w.resolve(outs[i]!));
    }
    // Synchronously with the last look at `waiting`: an item submitted from now on starts a lane.
    this.running -= 1;
    lease.release();
  }

  /** One transaction of `items`, on the lane's own connection; a failure gives that connection back. */
  private async transaction(lease: ConnectionLease, items: I[]): Promise<O[]> {
    try {
      return await this.db.transaction((trx) => this.write(trx, items), await lease.config());
    } catch (err) {
      lease.release();
      throw err;
    }
  }

  /** A failed batch, again, one transaction per item: only the items that fail by themselves fail. */
  private async oneByOne(lease: ConnectionLease, batch: Waiting<I, O>[]): Promise<void> {
    for (const w of batch) {
      try {
        const [out] = await this.transaction(lease, [w.item]);
        w.resolve(out!);
      } catch (err) {
        w.reject(err);
      }
    }
  }
}
