import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, createDatabase, type Database } from '../../core/db/database.js';
import { PG_STATEMENTS_KEPT } from '../../core/db/pg-statements.js';
import { heavyRead } from '../../core/db/reader-pool.js';
import { createPgDatabase, testDatabase } from '../helpers/server.js';

// On PostgreSQL, reads run as named statements, planned once per connection.
describe.runIf(testDatabase === 'pg')('PostgreSQL named statements', () => {
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const pg = await createPgDatabase();
    db = createDatabase({ client: 'pg', connectionString: pg.url });
    drop = pg.drop;
    await db.schema.createTable('notes', (t) => {
      t.increments('id');
      t.text('body');
    });
    await db('notes').insert([{ body: 'one' }, { body: 'two' }]);
  });
  afterAll(async () => {
    await closeDatabase(db);
    await drop();
  });

  /** The statements prepared on the transaction's connection that read `notes`. */
  const preparedOnNotes = async (trx: Database) =>
    ((await trx.raw("select statement, generic_plans from pg_prepared_statements where statement like 'select % from \"notes\"%' order by prepare_time")) as { rows: { statement: string; generic_plans: string }[] }).rows;

  it('a read is prepared once on its connection and planned once (a generic plan), a write is not', async () => {
    await db.transaction(async (trx) => {
      for (let i = 0; i < 3; i++) expect(await trx('notes').where('id', i + 1).select('body')).toHaveLength(i < 2 ? 1 : 0);
      await trx('notes').where('id', 1).update({ body: 'uno' });
      const prepared = (await preparedOnNotes(trx)).filter((row) => row.statement.includes('"id" = $1'));
      expect(prepared.map((row) => row.statement)).toEqual(['select "body" from "notes" where "id" = $1']);
      expect(Number(prepared[0]!.generic_plans)).toBe(3);
    });
  });

  it('a heavy read (a search) is planned for its values each time, not prepared', async () => {
    await db.transaction(async (trx) => {
      await trx('notes').where('body', 'like', '%n%').select('id');
      await heavyRead(db, async () => trx('notes').where('body', 'like', '%o%').select('body'));
      expect((await preparedOnNotes(trx)).map((row) => row.statement)).toContain('select "id" from "notes" where "body" like $1');
      expect((await preparedOnNotes(trx)).map((row) => row.statement)).not.toContain('select "body" from "notes" where "body" like $1');
    });
  });

  it('a read runs with a generic plan, a heavy read with a plan for its values, whichever connection it gets', async () => {
    const mode = (q: Database | Knex.Transaction) => q.select(q.raw("current_setting('plan_cache_mode') as mode")).then((rows) => rows[0].mode as string);
    for (let i = 0; i < 3; i++) {
      const [heavy, plain] = await Promise.all([heavyRead(db, () => mode(db)), mode(db)]);
      expect([heavy, plain]).toEqual(['auto', 'force_generic_plan']);
    }
  });

  it('a table whose columns change under its kept statements is read again with its new columns', async () => {
    const readAll = () => Promise.all(Array.from({ length: 12 }, () => db('notes').orderBy('id').select('*')));
    await readAll();
    await db.schema.alterTable('notes', (t) => t.text('extra'));
    for (const rows of await readAll()) expect(Object.keys(rows[0])).toEqual(['id', 'body', 'extra']);
  });

  it(`keeps at most ${PG_STATEMENTS_KEPT} statements on a connection`, async () => {
    await db.transaction(async (trx) => {
      for (let i = 0; i < PG_STATEMENTS_KEPT + 20; i++) await trx('notes').select(trx.raw(`${i} as n`));
      const { rows } = (await trx.raw('select count(*) as n from pg_prepared_statements')) as { rows: { n: string }[] };
      expect(Number(rows[0]!.n)).toBeLessThanOrEqual(PG_STATEMENTS_KEPT);
      expect(Number(rows[0]!.n)).toBeGreaterThan(0);
    });
  });
});
