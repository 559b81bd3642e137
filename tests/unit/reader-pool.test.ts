import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, createDatabase, type Database } from '../../core/db/database.js';
import { readRows } from '../../core/db/reader-pool.js';

// Reads on reader threads of a SQLite file, against the same rows the main connection wrote.
const dir = mkdtempSync(path.join(tmpdir(), 'atende-readers-'));
let db: Database;
beforeAll(async () => {
  db = createDatabase({ client: 'sqlite', filename: path.join(dir, 'readers.sqlite') });
  await db.schema.createTable('notes', (t) => {
    t.increments('id');
    t.string('body_text').notNullable();
    t.boolean('done').notNullable();
  });
});
afterAll(async () => {
  await closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite reader threads', () => {
  it('answer the rows a query on the main connection answers, camelCased, with every write committed before', async () => {
    await db('notes').insert([
      { bodyText: 'first', done: false },
      { bodyText: 'second', done: true },
    ]);
    const query = () => db('notes').where('done', true).orWhere('bodyText', 'like', 'f%').orderBy('id').select('id', 'bodyText');
    expect(await readRows(db, query())).toEqual(await query());
    expect(await readRows(db, query())).toEqual([
      { id: 1, bodyText: 'first' },
      { id: 2, bodyText: 'second' },
    ]);
    await db('notes').where('id', 1).delete();
    expect(await readRows(db, query())).toEqual([{ id: 2, bodyText: 'second' }]);
  });

  it('run on a connection of their own, read-only, and reject what fails', async () => {
    await expect(readRows(db, db('notes').insert({ bodyText: 'x', done: false }).returning('id'))).rejects.toThrow(/readonly/);
    await expect(readRows(db, db('missing').select('id'))).rejects.toThrow(/no such table/);
    // Still serving after the failures.
    expect(await readRows(db, db('notes').count({ total: '*' }))).toEqual([{ total: 1 }]);
  });

  it.runIf(process.platform === 'linux')('run below the main thread: a busy CPU goes to the event loop first', async () => {
    await readRows(db, db('notes').select('id'));
    // A thread's stat: after the name in parentheses, the 17th field is its nice value.
    const nices = readdirSync('/proc/self/task').map((tid) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    });
    expect(nices.filter((nice) => nice === 10).length).toBeGreaterThanOrEqual(1);
    expect(nices).toContain(0);
  });

  it('an in-memory database reads on its own connection', async () => {
    const memory = createDatabase({ client: 'sqlite', filename: ':memory:' });
    try {
      await memory.schema.createTable('items', (t) => t.increments('id'));
      await memory('items').insert({});
      expect(await readRows(memory, memory('items').select('id'))).toEqual([{ id: 1 }]);
    } finally {
      await closeDatabase(memory);
    }
  });

  it('closed, they refuse reads; the process is not held', async () => {
    const other = createDatabase({ client: 'sqlite', filename: path.join(dir, 'closed.sqlite') });
    await other.schema.createTable('items', (t) => t.increments('id'));
    expect(await readRows(other, other('items').select('id'))).toEqual([]);
    await closeDatabase(other);
    await expect(readRows(other, other('items').select('id'))).rejects.toThrow(/closed/);
  });
});
