import type { Knex } from 'knex';

/** The contacts list filters by creation day (date, dateStart, dateEnd) within a company. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contacts', (t) => {
    t.index(['company_id', 'created_at'], 'contacts_company_created_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contacts', (t) => {
    t.dropIndex(['company_id', 'created_at'], 'contacts_company_created_at');
  });
}
