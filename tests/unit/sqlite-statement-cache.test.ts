import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type BetterSqlite3 from 'better-sqlite3';
import { closeDatabase, createDatabase, type Database } from '../../core/db/database.js';
import { STATEMENT_CACHE_SIZE } from '../../core/db/sqlite-client.js';

// The prepared statements the SQLite client keeps per connection, on a real in-memory database.
let db: Database;
/** How many times the connection prepared a statement. */
let prepared = 0;

beforeAll(async () => {
  db = createDatabase({ client: 'sqlite', filename: ':memory:' });
  await db.schema.createTable('notes', (t) => {
    t.increments('id');
    t.text('body').notNullable();
  });
  const connection = (await db.client.acquireConnection()) as BetterSqlite3.Database;
  const prepare = connection.prepare.bind(connection);
  connection.prepare = ((sql: string) => {
    prepared += 1;
    return prepare(sql);
  }) as typeof connection.prepare;
  db.client.releaseConnection(connection);
});
afterAll(async () => {
  if (db) await closeDatabase(db);
});

describe('SQLite statement cache', () => {
  it('prepares a query once and answers each run with its own bindings', async () => {
    const [{ id }] = (await db('notes').insert({ body: 'one' }).returning('id')) as { id: number }[];
    await db('notes').insert({ body: 'two' });
    const before = prepared;
    for (const body of ['one', 'two', 'three']) {
      expect(await db('notes').where({ body }).select('body')).toEqual(body === 'three' ? [] : [{ body }]);
    }
    expect(prepared - before).toBe(1);
    expect(id).toBe(1);
  });

  it('writes answer what they changed, run after run', async () => {
    const first = await db('notes').where({ body: 'nobody' }).update({ body: 'x' });
    const second = await db('notes').where({ body: 'one' }).update({ body: 'uno' });
    expect([first, second]).toEqual([0, 1]);
  });

  it('a kept statement follows the schema changing under it', async () => {
    const all = () => db('notes').orderBy('id').first();
    expect(Object.keys(await all())).toEqual(['id', 'body']);
    await db.schema.alterTable('notes', (t) => t.integer('stars').notNullable().defaultTo(5));
    expect(await all()).toEqual({ id: 1, body: 'uno', stars: 5 });
  });

  it(`keeps at most ${STATEMENT_CACHE_SIZE}: the least recently used is prepared again`, async () => {
    const query = (n: number) => db('notes').where('id', '>', -n).count({ total: '*' });
    await query(0);
    for (let n = 1; n <= STATEMENT_CACHE_SIZE; n += 1) await db.raw(`select ${n} as n`);
    const before = prepared;
    expect(await query(0)).toEqual([{ total: 2 }]);
    expect(prepared - before).toBe(1);
  });
});
