import type { Knex } from 'knex';
import type { Database } from '../../db/database.js';

/** Created by migrations/20261122000200_core_baileys.ts. */
export const LID_MAP_TABLE = 'baileys_lid_map';

/** A LID user and, once WhatsApp has told us, the phone-number user it stands for. */
export interface LidPair {
  lid: string;
  pn?: string;
}

interface LidRow {
  lid: string;
  pn: string | null;
}

/**
 * Baileys 7 identifies people by LID (a private id) as often as by phone number, and a LID can be
 * turned back into a number only if the pair was seen before. This keeps every pair one connection
 * has seen, in the database and in memory (lookups happen for every message, synchronously), so a
 * person reached by LID and by number is one contact. A LID seen without its number is kept too
 * (pn null): the driver then knows that digits it gets back are a LID, not a phone number.
 */
export class LidMap {
  private readonly pnByLid = new Map<string, string | null>();
  private readonly lidByPn = new Map<string, string>();

  constructor(
    private readonly db: Database,
    private readonly whatsappId: number,
    /** Told of every LID that gains its phone number (once per change). */
    private readonly onPaired: (pair: Required<LidPair>) => void = () => {},
  ) {}

  /** Reads this connection's pairs into memory; call before the first lookup. */
  async load(): Promise<void> {
    const rows = (await this.db(LID_MAP_TABLE).where({ whatsappId: this.whatsappId }).select('lid', 'pn')) as LidRow[];
    this.pnByLid.clear();
    this.lidByPn.clear();
    for (const row of rows) this.cache(row.lid, row.pn);
  }

  pnFor(lid: string): string | undefined {
    return this.pnByLid.get(lid) ?? undefined;
  }

  lidFor(pn: string): string | undefined {
    return this.lidByPn.get(pn);
  }

  hasLid(lid: string): boolean {
    return this.pnByLid.has(lid);
  }

  /**
   * Stores what is new in `pairs` (in `trx` when given, so it commits with the caller's writes).
   * A pair replaces whatever either side was paired with before; a LID without number never
   * forgets a number already known.
   */
  async remember(pairs: LidPair[], trx?: Knex.Transaction): Promise<void> {
    const fresh = new Map<string, LidPair>();
    for (const { lid, pn } of pairs) {
      if (!lid || (pn === undefined ? this.pnByLid.has(lid) : this.pnByLid.get(lid) === pn)) continue;
      fresh.set(lid, { lid, pn: pn ?? fresh.get(lid)?.pn });
    }
    if (fresh.size === 0) return;
    const write = async (t: Knex.Transaction) => {
      const updatedAt = new Date().toISOString();
      for (const { lid, pn } of fresh.values()) {
        const row = { whatsappId: this.whatsappId, lid, pn: pn ?? null, updatedAt };
        if (!pn) {
          await t(LID_MAP_TABLE).insert(row).onConflict(['whatsappId', 'lid']).ignore();
          continue;
        }
        // Unique both ways: a number now paired with another LID leaves its old row.
        await t(LID_MAP_TABLE).where({ whatsappId: this.whatsappId, pn }).whereNot({ lid }).delete();
        // An upsert, so two writers storing the same pair at once both succeed. PostgreSQL checks
        // only the ON CONFLICT index before inserting, so the later of two concurrent writers can
        // still fail on the number's unique index once the first commits: in a savepoint, it then
        // tries again and finds the row.
        const upsert = (q: Knex) => q(LID_MAP_TABLE).insert(row).onConflict(['whatsappId', 'lid']).merge(['pn', 'updatedAt']);
        try {
          await t.transaction(async (savepoint) => {
            await upsert(savepoint);
          });
        } catch (err) {
          if ((err as { code?: string }).code !== '23505') throw err;
          await upsert(t);
        }
      }
    };
    if (!trx) {
      await this.db.transaction(write);
      this.learn(fresh.values());
      return;
    }
    await write(trx);
    // Known (and announced) once the caller's transaction commits, never before: a reader that
    // hears of a pair must find its row.
    void trx.executionPromise.then(
      () => this.learn(fresh.values()),
      () => {},
    );
  }

  private learn(pairs: Iterable<LidPair>): void {
    for (const { lid, pn } of pairs) {
      if (pn === undefined ? this.pnByLid.has(lid) : this.pnByLid.get(lid) === pn) continue;
      this.cache(lid, pn ?? null);
      if (pn) this.onPaired({ lid, pn });
    }
  }

  private cache(lid: string, pn: string | null): void {
    const previous = this.pnByLid.get(lid);
    if (previous) this.lidByPn.delete(previous);
    if (pn) {
      const previousLid = this.lidByPn.get(pn);
      if (previousLid && previousLid !== lid) this.pnByLid.delete(previousLid);
      this.lidByPn.set(pn, lid);
    }
    this.pnByLid.set(lid, pn);
  }
}
