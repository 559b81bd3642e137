import { setImmediate as nextTurn } from 'node:timers/promises';

/** Entries kept before expired ones are swept out. */
const SWEEP_AT = 10_000;

function sweep<V>(entries: Map<string | number, { until: number } & V>, now: number): void {
  if (entries.size < SWEEP_AT) return;
  for (const [key, entry] of entries) if (entry.until <= now) entries.delete(key);
}

/**
 * Values loaded from the database and kept for a few seconds (a connection's queues, a company's
 * settings) so the pipeline does not read them again for every message. Concurrent readers share
 * one load; a failed load is forgotten at once.
 */
export class TtlCache<K extends string | number, V> {
  private readonly entries = new Map<K, { until: number; value: Promise<V> }>();

  constructor(private readonly ttlMs: number) {}

  get(key: K, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    sweep(this.entries, now);
    const value = load();
    const entry = { until: now + this.ttlMs, value };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Drops the entries whose key passes `match` (a company's, say). */
  deleteWhere(match: (key: K) => boolean): void {
    for (const key of [...this.entries.keys()]) if (match(key)) this.entries.delete(key);
  }
}

/**
 * "Not again before": marks kept in memory for rate limits (one profile picture look-up per
 * contact per hour, one out-of-hours reply per ticket per ten minutes). A restart forgets them,
 * which at worst repeats one automatic action.
 */
export class Cooldowns {
  private readonly marks = new Map<string, { until: number }>();

  /** True when `key` is not cooling down, and starts its cooldown of `ms`. */
  take(key: string, ms: number, now = Date.now()): boolean {
    const mark = this.marks.get(key);
    if (mark && mark.until > now) return false;
    sweep(this.marks, now);
    this.marks.set(key, { until: now + ms });
    return true;
  }

  /** True while `key` is cooling down. */
  active(key: string, now = Date.now()): boolean {
    const mark = this.marks.get(key);
    return mark !== undefined && mark.until > now;
  }

  start(key: string, ms: number, now = Date.now()): void {
    sweep(this.marks, now);
    this.marks.set(key, { until: now + ms });
  }

  clear(key: string): void {
    this.marks.delete(key);
  }
}

/**
 * Reads asked for in one turn of the event loop answered by one load: the messages of a stored
 * batch go on side by side (their frames, their conversation turns), so what each asks for alone
 * costs one query for all of them. `load` answers the values it found by key.
 */
export class TurnBatch<K, V> {
  private pending?: { keys: Set<K>; values: Promise<Map<K, V>> };

  constructor(private readonly load: (keys: K[]) => Promise<Map<K, V>>) {}

  get(key: K): Promise<V | undefined> {
    if (!this.pending) {
      const keys = new Set<K>();
      const values = nextTurn().then(() => {
        this.pending = undefined;
        return this.load([...keys]);
      });
      this.pending = { keys, values };
    }
    this.pending.keys.add(key);
    return this.pending.values.then((found) => found.get(key));
  }
}
