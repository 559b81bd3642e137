import type { Knex } from 'knex';
import type { EventJournal, JournalEntry, JournaledEvent } from '../../channels/event-journal.js';
import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';

/**
 * The inbound journal: what a provider delivered is written here before the driver acknowledges
 * it, and processed from here. An entry is deleted in the transaction that stores what it became,
 * so a crash between the two never loses it nor (with the pipeline's idempotent writes) doubles
 * it; what is left at start-up is processed again, in order per chat.
 */

/** On a bus event read from the journal: its entry, settled by whoever handles the event. */
export interface Journaled {
  entryId?: number;
}

const TABLE = 'inbound_journal';
/** Rows written by one insert when many events arrive at once. */
const BATCH_MAX = 500;
/** After this many failures an entry is set aside (kept, marked failed) and its chat goes on. */
export const JOURNAL_ATTEMPTS = 3;
const RETRY_DELAY_MS = 100;

/** The chat an event belongs to, within its connection: events of one chat are processed in order. */
export function chatOf(event: JournaledEvent): string {
  return event.type === 'message' ? event.message.chatId : event.from.number;
}

/** Settles one entry: inside the transaction that stores what it became, or after, when nothing was stored. */
export class JournalReceipt {
  /** Where the entry was deleted: a transaction rolled back after it leaves it to be deleted again by the next. */
  private settledIn?: Knex;

  constructor(private readonly entryId?: number) {}

  get settled(): boolean {
    return this.settledIn !== undefined;
  }

  async settle(db: Knex): Promise<void> {
    if (this.settledIn === db) return;
    if (this.entryId !== undefined) await db(TABLE).where({ id: this.entryId }).delete();
    this.settledIn = db;
  }

  /** Settles many receipts by one statement, in the transaction that stores what they became. */
  static async settleAll(db: Knex, receipts: JournalReceipt[]): Promise<void> {
    const ids = receipts.map((r) => r.entryId).filter((id): id is number => id !== undefined);
    for (let i = 0; i < ids.length; i += BATCH_MAX) await db(TABLE).whereIn('id', ids.slice(i, i + BATCH_MAX)).delete();
    for (const receipt of receipts) receipt.settledIn = db;
  }
}

interface Waiting {
  row: Record<string, unknown>;
  resolve(id: number): void;
  reject(err: unknown): void;
}

export class InboundJournal implements EventJournal {
  private waiting: Waiting[] = [];
  private writing?: Promise<void>;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
  ) {}

  /**
   * Writes an event; resolves with its entry id once committed. Events appended while a write is
   * under way go together in the next one, so a burst costs a few commits, not one per event.
   */
  append(connectionId: number, companyId: number, event: JournaledEvent): Promise<number> {
    const row = { companyId, connectionId, chat: chatOf(event), event: JSON.stringify(event), createdAt: new Date().toISOString() };
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, resolve, reject });
      this.writing ??= this.writeAll();
    });
  }

  /** A connection's entries not yet processed nor set aside, oldest first. */
  async pending(connectionId: number): Promise<JournalEntry[]> {
    const rows: { id: number; companyId: number; connectionId: number; event: string }[] = await this.db(TABLE)
      .select('id', 'companyId', 'connectionId', 'event')
      .where({ connectionId })
      .whereNull('failedAt')
      .orderBy('id');
    return rows.map((row) => ({ ...row, event: JSON.parse(row.event) as JournaledEvent }));
  }

  /**
   * Handles an entry until it succeeds, then settles it if the handler did not. A failure is
   * counted on the entry and tried again; after JOURNAL_ATTEMPTS the entry is set aside and logged,
   * and the promise resolves so the chat goes on. Without an entry (an event that did not come from
   * the journal) the handler runs once.
   */
  async process(entryId: number | undefined, handle: (receipt: JournalReceipt) => Promise<void>): Promise<void> {
    if (entryId === undefined) return handle(new JournalReceipt());
    for (;;) {
      const receipt = new JournalReceipt(entryId);
      try {
        await handle(receipt);
        if (!receipt.settled) await receipt.settle(this.db);
        return;
      } catch (err) {
        const attempts = await this.countFailure(entryId, err);
        if (attempts === undefined) {
          // Stored already (settled in its committed transaction): what failed came after.
          this.log.error({ err, entryId }, 'inbound event failed after it was stored');
          return;
        }
        if (attempts >= JOURNAL_ATTEMPTS) {
          this.log.error({ err, entryId, attempts }, 'inbound event set aside after repeated failures');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS * attempts));
      }
    }
  }

  /** Counts a failed attempt; answers the attempts so far, or undefined when the entry is gone. */
  private async countFailure(entryId: number, err: unknown): Promise<number | undefined> {
    const error = err instanceof Error ? err.message : String(err);
    return this.db.transaction(async (trx) => {
      const entry: { attempts: number } | undefined = await trx(TABLE).where({ id: entryId }).first('attempts');
      if (!entry) return undefined;
      const attempts = entry.attempts + 1;
      const failedAt = attempts >= JOURNAL_ATTEMPTS ? new Date().toISOString() : null;
      await trx(TABLE).where({ id: entryId }).update({ attempts, error, failedAt });
      return attempts;
    });
  }

  /** Writes what is waiting, a batch at a time, until nothing is; each batch is answered after its commit. */
  private async writeAll(): Promise<void> {
    // Let the events of this moment join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, BATCH_MAX);
      try {
        const ids: { id: number }[] = await this.db(TABLE)
          .insert(batch.map((w) => w.row))
          .returning('id');
        batch.forEach((w, i) => w.resolve(ids[i]!.id));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.writing = undefined;
  }
}
