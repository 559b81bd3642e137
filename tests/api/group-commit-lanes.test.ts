import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../core/db/database.js';
import { GroupCommit } from '../../core/modules/pipeline/group-commit.js';
import { eventually } from '../helpers/inbox.js';
import { startTestServer, testDatabase, type TestServer } from '../helpers/server.js';

// Lanes of a group commit on the test database: on PostgreSQL, items that arrive while every
// running transaction is busy are written by another one on its own connection; SQLite, with one
// connection, keeps one lane whatever is asked.
const TABLE = 'group_commit_lane_items';
let server: TestServer;
let db: Database;

beforeAll(async () => {
  server = await startTestServer();
  db = server.atende.container.db;
  await db.schema.createTable(TABLE, (t) => {
    t.increments('id');
    t.string('name').notNullable().unique();
  });
});

afterAll(async () => {
  await server?.close();
});

/** A committer of two lanes that records its batches and holds open the transaction of the item `held` until released. */
function heldCommitter(held: string) {
  const batches: string[][] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const commits = new GroupCommit<string, number>(
    db,
    async (trx, names) => {
      batches.push(names);
      const ids: number[] = [];
      for (const name of names) {
        const [row] = (await trx(TABLE).insert({ name }).returning('id')) as { id: number }[];
        ids.push(row!.id);
      }
      if (names.includes(held)) await gate;
      return ids;
    },
    { lanes: 2 },
  );
  return { commits, batches, release };
}

describe(`group commit lanes (${testDatabase})`, () => {
  it('items that arrive while a transaction is open are written by another one at once on PostgreSQL, after it on SQLite', async () => {
    const { commits, batches, release } = heldCommitter('held');
    const first = commits.submit('held');
    await eventually(async () => batches.length === 1, 5000, 'the first batch');
    const later = Promise.all(['beside-0', 'beside-1'].map((name) => commits.submit(name)));
    if (testDatabase === 'pg') {
      await eventually(async () => batches.length === 2, 5000, 'a second transaction beside the open one');
      expect(await later).toHaveLength(2);
    } else {
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(batches).toEqual([['held']]);
    }
    release();
    const ids = [await first, ...(await later)];
    expect(batches).toEqual([['held'], ['beside-0', 'beside-1']]);
    const rows = (await db(TABLE).whereIn('id', ids).orderBy('name').select('name')) as { name: string }[];
    expect(rows.map((r) => r.name)).toEqual(['beside-0', 'beside-1', 'held']);
  });

  it('a failed batch in a lane is written again item by item there, while the other lane goes on', async () => {
    await db(TABLE).insert({ name: 'taken-already' });
    const { commits, batches, release } = heldCommitter('slow');
    const slow = commits.submit('slow');
    await eventually(async () => batches.length === 1, 5000, 'the first batch');
    const outcomes = Promise.allSettled(['fine-0', 'taken-already', 'fine-1'].map((name) => commits.submit(name)));
    if (testDatabase === 'sqlite') release();
    const settled = await outcomes;
    release();
    await slow;
    expect(settled.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(batches).toEqual([['slow'], ['fine-0', 'taken-already', 'fine-1'], ['fine-0'], ['taken-already'], ['fine-1']]);
    const [{ n }] = (await db(TABLE).whereIn('name', ['fine-0', 'fine-1', 'slow']).count({ n: '*' })) as { n: number | string }[];
    expect(Number(n)).toBe(3);
  });
});
