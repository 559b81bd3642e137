import type { Knex } from 'knex';

/** Campaign settings: one row per (company, key), its value JSON (spec §3 Campaign settings). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('campaign_settings', (t) => {
    t.increments('id');
    t.integer('company_id').notNullable().references('id').inTable('companies').onDelete('CASCADE');
    t.string('key', 50).notNullable();
    t.text('value').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['company_id', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('campaign_settings');
}
