import type { Knex } from 'knex';

/**
 * Quick replies shared with the whole company ('geral', commercial spec) next to each user's own,
 * and the indexes the tag and quick-reply lists read by.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('quick_messages', (t) => {
    t.boolean('geral').notNullable().defaultTo(false);
    t.index(['company_id', 'shortcode']);
  });
  await knex.schema.alterTable('tags', (t) => {
    t.index(['company_id', 'name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tags', (t) => {
    t.dropIndex(['company_id', 'name']);
  });
  await knex.schema.alterTable('quick_messages', (t) => {
    t.dropIndex(['company_id', 'shortcode']);
    t.dropColumn('geral');
  });
}
