import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, isPostgres, type Database } from '../../core/db/database.js';
import { closeReaderPool, PG_HEAVY_READS, readRows } from '../../core/db/reader-pool.js';
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
  await closeReaderPool(db);
  await db.destroy();
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
});
