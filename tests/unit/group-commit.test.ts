import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, createDatabase, type Database } from '../../core/db/database.js';
import { isUniqueViolation } from '../../core/db/unique-violation.js';
import { GroupCommit } from '../../core/modules/pipeline/group-commit.js';

describe('group commit', () => {
  let dir: string;
  let db: Database;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'atende-group-commit-'));
    db = createDatabase({ client: 'sqlite', filename: path.join(dir, 'test.sqlite') });
    await db.schema.createTable('items', (t) => {
      t.increments('id');
      t.string('name').notNullable().unique();
    });
  });
  afterAll(async () => {
    await closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Writes items (names) and records the batches it was given. */
  function committer(batches: string[][]) {
    return new GroupCommit<string, number>(db, async (trx, names) => {
      batches.push(names);
      const ids: number[] = [];
      for (const name of names) {
        const [row] = (await trx('items').insert({ name }).returning('id')) as { id: number }[];
        ids.push(row!.id);
      }
      return ids;
    });
  }

  it('items submitted together share one transaction and are written in the order submitted', async () => {
    const batches: string[][] = [];
    const commits = committer(batches);
    const names = Array.from({ length: 50 }, (_, i) => `together-${i}`);
    const ids = await Promise.all(names.map((name) => commits.submit(name)));
    expect(batches).toEqual([names]);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(await db('items').whereLike('name', 'together-%').count({ n: '*' })).toEqual([{ n: 50 }]);
  });

  it('items submitted while a batch commits go together in the next one', async () => {
    const batches: string[][] = [];
    const commits = committer(batches);
    const first = commits.submit('while-0');
    await new Promise((resolve) => setImmediate(resolve));
    const later = ['while-1', 'while-2', 'while-3'].map((name) => commits.submit(name));
    await Promise.all([first, ...later]);
    expect(batches).toEqual([['while-0'], ['while-1', 'while-2', 'while-3']]);
  });

  it('a batch that fails is written again one item per transaction: only the bad item fails', async () => {
    const batches: string[][] = [];
    const commits = committer(batches);
    await commits.submit('taken');
    batches.length = 0;
    const outcomes = await Promise.allSettled(['alone-0', 'taken', 'alone-1'].map((name) => commits.submit(name)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(isUniqueViolation((outcomes[1] as PromiseRejectedResult).reason)).toBe(true);
    expect(batches).toEqual([['alone-0', 'taken', 'alone-1'], ['alone-0'], ['taken'], ['alone-1']]);
    expect((await db('items').whereLike('name', 'alone-%').orderBy('id').select('name')).map((r: { name: string }) => r.name)).toEqual(['alone-0', 'alone-1']);
  });
});
