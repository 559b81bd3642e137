import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, createDatabase, isPostgres, type Database } from '../../core/db/database.js';
import { heavyRead, PG_HEAVY_READS, readRows } from '../../core/db/reader-pool.js';
import { createPgDatabase, testDatabase } from '../helpers/server.js';

// Heavy reads (searches, dashboard periods) beside the short queries of lists, frames and inbound
// messages, on the database the suite runs on: SQLite's reader threads, PostgreSQL's capped share of the pool.
let db: Database;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  if (testDatabase === 'pg') {
    const pg = await createPgDatabase();
    db = createDatabase({ client: 'pg', connectionString: pg.url });
    cleanup = pg.drop;
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), 'atende-heavy-'));
    db = createDatabase({ client: 'sqlite', filename: path.join(dir, 'heavy.sqlite') });
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  await db.schema.createTable('notes', (t) => t.increments('id'));
});
afterAll(async () => {
  await closeDatabase(db);
  await cleanup();
});

/** A read that takes a while: a sleep on PostgreSQL, a long count on SQLite. */
function slowRead(db: Database) {
  return isPostgres(db)
    ? db.select(db.raw("pg_sleep(0.3)::text as slept, 'heavy' as kind"))
    : db.select(db.raw("(with recursive c(n) as (select 1 union all select n + 1 from c where n < 1500000) select count(*) from c) as slept, 'heavy' as kind"));
}

describe('heavy reads', () => {
  it('ten at once leave room for a short query, which answers before any of them', async () => {
    const done: string[] = [];
    const heavy = Array.from({ length: 10 }, () => readRows(db, slowRead(db)).then(() => done.push('heavy')));
    // Let the heavy reads take their connections or threads first.
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (isPostgres(db)) {
      const sleeping = await db('pg_stat_activity').where('datname', db.client.database()).whereLike('query', '%pg_sleep%').whereNot('pid', db.raw('pg_backend_pid()')).count({ n: '*' });
      expect(Number(sleeping[0]!.n)).toBe(PG_HEAVY_READS);
    }
    await db('notes').insert({});
    expect(await db('notes').count({ n: '*' })).toEqual([{ n: isPostgres(db) ? '1' : 1 }]);
    done.push('short');
    await Promise.all(heavy);
    expect(done.indexOf('short')).toBe(0);
    expect(done).toHaveLength(11);
  });

  // SQLite has no cap: its heavy reads queue for the reader threads.
  it.runIf(testDatabase === 'pg')('a read of several queries (a whole search) holds one place for all of them, its own readRows included', async () => {
    /** PostgreSQL backends in a heavy read's sleep now. */
    const sleeping = async () => {
      const [row] = await db('pg_stat_activity').where('datname', db.client.database()).whereLike('query', '%pg_sleep%').whereNot('pid', db.raw('pg_backend_pid()')).count({ n: '*' });
      return Number(row!.n);
    };
    const seen: number[] = [];
    const searches = Array.from({ length: 10 }, () =>
      heavyRead(db, async () => {
        // Its nested readRows takes no second place (four such would otherwise wait for each other forever)...
        await readRows(db, slowRead(db));
        // ...and its plain queries wait with it.
        return slowRead(db);
      }),
    );
    for (const wait of [100, 300, 300, 300]) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      seen.push(await sleeping());
    }
    const answers = await Promise.all(searches);
    expect(answers.map((rows) => rows[0].kind)).toEqual(Array(10).fill('heavy'));
    expect(Math.max(...seen)).toBe(PG_HEAVY_READS);
  });
});
