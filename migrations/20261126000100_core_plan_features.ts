import type { Knex } from 'knex';

/**
 * Plan features and limits become rows (DESIGN §7): one row per plan and key, so a plugin declares
 * its own flag or limit without a column of `plans`. The spec's seven flags are copied into rows
 * with their values and their columns dropped; `down` puts the columns back from the rows.
 */
const SPEC_FLAGS = ['useCampaigns', 'useKanban', 'useOpenAi', 'useIntegrations', 'useSchedules', 'useInternalChat', 'useExternalApi'];

const column = (flag: string) => flag.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * On SQLite, knex alters a column by copying `plans` into a new table and dropping the old one,
 * which the foreign key of companies.plan_id refuses once a company exists (the pragma that
 * would lift it is ignored inside the migration's transaction). SQLite's own ALTER TABLE adds and
 * drops these plain columns in place.
 */
async function alterFlags(knex: Knex, action: 'add' | 'drop'): Promise<void> {
  if (knex.client.config.client === 'pg') {
    await knex.schema.alterTable('plans', (t) => {
      for (const flag of SPEC_FLAGS) {
        if (action === 'drop') t.dropColumn(flag);
        else t.boolean(flag).notNullable().defaultTo(true);
      }
    });
    return;
  }
  for (const flag of SPEC_FLAGS) {
    const sql = action === 'drop' ? 'ALTER TABLE plans DROP COLUMN ??' : 'ALTER TABLE plans ADD COLUMN ?? boolean NOT NULL DEFAULT 1';
    await knex.raw(sql, [column(flag)]);
  }
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plan_features', (t) => {
    t.increments('id');
    t.integer('plan_id').notNullable().references('id').inTable('plans').onDelete('CASCADE');
    t.string('key', 100).notNullable();
    t.boolean('enabled').notNullable().defaultTo(false);
    t.integer('limit');
    t.unique(['plan_id', 'key']);
  });
  const plans: Record<string, unknown>[] = await knex('plans').select('id', ...SPEC_FLAGS);
  const rows = plans.flatMap((plan) => SPEC_FLAGS.map((key) => ({ planId: plan.id, key, enabled: Boolean(plan[key]) })));
  if (rows.length > 0) await knex.batchInsert('plan_features', rows, 100);
  await alterFlags(knex, 'drop');
}

export async function down(knex: Knex): Promise<void> {
  await alterFlags(knex, 'add');
  const rows: { planId: number; key: string; enabled: boolean | number }[] = await knex('plan_features').whereIn('key', SPEC_FLAGS);
  for (const row of rows) {
    await knex('plans').where('id', row.planId).update({ [row.key]: Boolean(row.enabled) });
  }
  await knex.schema.dropTable('plan_features');
}
