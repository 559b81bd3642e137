import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Knex } from 'knex';

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
 * Group commit: items submitted while a transaction is under way are written together by the next
 * one, so a burst costs a few commits, not one per item (the shape of InboundJournal.append).
 * `write` stores a batch and answers one result per item, in order; a batch that fails is rolled
 * back whole and its items are written again by the same `write`, one transaction each, so one
 * bad item fails alone (its caller retries or sets it aside) and the others are stored once.
 *
 * Order: items are written in the order submitted. Callers that need one key's items in order
 * submit the next only after the previous one resolved (the pipeline's chat serializer).
 */
export class GroupCommit<I, O> {
  private waiting: Waiting<I, O>[] = [];
  private writing?: Promise<void>;

  constructor(
    private readonly db: Knex,
    private readonly write: (trx: Knex.Transaction, items: I[]) => Promise<O[]>,
  ) {}

  /** Writes `item`; resolves with what `write` answered once its transaction committed. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.writing ??= this.writeAll();
    });
  }

  /** Writes what is waiting, a batch at a time, until nothing is. */
  private async writeAll(): Promise<void> {
    // Let the items of this moment join the first batch.
    await nextTurn();
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, BATCH_MAX);
      let outs: O[];
      try {
        outs = await this.db.transaction((trx) => this.write(trx, batch.map((w) => w.item)));
      } catch (err) {
        if (batch.length === 1) batch[0]!.reject(err);
        else await this.oneByOne(batch);
        continue;
      }
      batch.forEach((w, i) => w.resolve(outs[i]!));
    }
    this.writing = undefined;
  }

  /** A failed batch, again, one transaction per item: only the items that fail by themselves fail. */
  private async oneByOne(batch: Waiting<I, O>[]): Promise<void> {
    for (const w of batch) {
      try {
        const [out] = await this.db.transaction((trx) => this.write(trx, [w.item]));
        w.resolve(out!);
      } catch (err) {
        w.reject(err);
      }
    }
  }
}
